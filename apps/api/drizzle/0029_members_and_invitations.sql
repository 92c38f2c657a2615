CREATE TABLE "organization_invitations" (
	"uuid" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"organization_uuid" uuid NOT NULL,
	"email" text NOT NULL,
	"role" text NOT NULL,
	"token_hash" text NOT NULL,
	"invited_by_uuid" uuid,
	"expires_at" timestamp with time zone NOT NULL,
	"accepted_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "organization_invitations_tokenHash_unique" UNIQUE("token_hash"),
	CONSTRAINT "organization_invitations_role_check" CHECK ("organization_invitations"."role" in ('ADMIN', 'USER'))
);
--> statement-breakpoint
ALTER TABLE "organization_users" ADD COLUMN "role" text DEFAULT 'USER' NOT NULL;--> statement-breakpoint
ALTER TABLE "organization_invitations" ADD CONSTRAINT "organization_invitations_organization_uuid_organizations_uuid_fk" FOREIGN KEY ("organization_uuid") REFERENCES "public"."organizations"("uuid") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "organization_invitations" ADD CONSTRAINT "organization_invitations_invited_by_uuid_users_uuid_fk" FOREIGN KEY ("invited_by_uuid") REFERENCES "public"."users"("uuid") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "organization_invitations_pending_key" ON "organization_invitations" USING btree ("organization_uuid","email") WHERE "organization_invitations"."accepted_at" is null;--> statement-breakpoint
ALTER TABLE "organization_users" ADD CONSTRAINT "organization_users_role_check" CHECK ("organization_users"."role" in ('ADMIN', 'USER'));--> statement-breakpoint
-- Decision 034: ADMIN is a member's role in one organization. The links of users whose global
-- roles held ADMIN become ADMIN links, and ADMIN leaves users.roles (ROOT and SUPERADMIN stay
-- global; a user left without a role is a USER). As flotte_system: with FORCE row-level security
-- a migrating owner that is not a superuser would see no link.
SET ROLE flotte_system;
--> statement-breakpoint
UPDATE "organization_users" ou SET "role" = 'ADMIN' FROM "users" u WHERE u."uuid" = ou."user_uuid" AND 'ADMIN' = any(u."roles");
--> statement-breakpoint
RESET ROLE;
--> statement-breakpoint
UPDATE "users" SET "roles" = CASE WHEN array_remove("roles", 'ADMIN') = '{}' THEN '{USER}'::text[] ELSE array_remove("roles", 'ADMIN') END WHERE 'ADMIN' = any("roles");
--> statement-breakpoint
-- Invitations are their organization's data: row-level security with FORCE (decision 002). The
-- link's side (check, accept) finds an invitation by its token's hash before any organization is
-- known: in system scope, as flotte_system.
ALTER TABLE organization_invitations ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
ALTER TABLE organization_invitations FORCE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY tenant_isolation ON organization_invitations TO flotte_app
  USING (organization_uuid = app_current_org()) WITH CHECK (organization_uuid = app_current_org());
--> statement-breakpoint
CREATE POLICY system_access ON organization_invitations TO flotte_system USING (true) WITH CHECK (true);
