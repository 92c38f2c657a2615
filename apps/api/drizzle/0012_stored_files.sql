CREATE TABLE "stored_files" (
	"key" text PRIMARY KEY NOT NULL,
	"organization_uuid" uuid NOT NULL,
	"size_bytes" bigint NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "stored_files_key_in_organization" CHECK (starts_with("stored_files"."key", "stored_files"."organization_uuid"::text || '/')),
	CONSTRAINT "stored_files_size_check" CHECK ("stored_files"."size_bytes" >= 0)
);
--> statement-breakpoint
ALTER TABLE "stored_files" ADD CONSTRAINT "stored_files_organization_uuid_organizations_uuid_fk" FOREIGN KEY ("organization_uuid") REFERENCES "public"."organizations"("uuid") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "stored_files_organization_idx" ON "stored_files" USING btree ("organization_uuid");--> statement-breakpoint
-- Hand-written (Drizzle has no FORCE): tenant isolation as every organization's table (decision 002).
ALTER TABLE stored_files ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
ALTER TABLE stored_files FORCE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY tenant_isolation ON stored_files TO flotte_app
  USING (organization_uuid = app_current_org()) WITH CHECK (organization_uuid = app_current_org());
--> statement-breakpoint
CREATE POLICY system_access ON stored_files TO flotte_system USING (true) WITH CHECK (true);
