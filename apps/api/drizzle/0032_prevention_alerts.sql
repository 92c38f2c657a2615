CREATE TABLE "alert_reads" (
	"uuid" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"organization_uuid" uuid NOT NULL,
	"alert_uuid" uuid NOT NULL,
	"user_uuid" uuid NOT NULL,
	"read_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "organization_alerts" (
	"uuid" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"organization_uuid" uuid NOT NULL,
	"source" text NOT NULL,
	"prevention_alert_uuid" uuid,
	"rule" text,
	"cause_key" text,
	"severity" text NOT NULL,
	"title" text NOT NULL,
	"body" text NOT NULL,
	"link_href" text,
	"link_label" text,
	"published_at" timestamp with time zone DEFAULT now() NOT NULL,
	"closed_at" timestamp with time zone,
	"digested_at" timestamp with time zone,
	CONSTRAINT "organization_alerts_source_check" CHECK (("organization_alerts"."source" = 'written' and "organization_alerts"."prevention_alert_uuid" is not null and "organization_alerts"."cause_key" is null) or ("organization_alerts"."source" = 'automatic' and "organization_alerts"."cause_key" is not null and "organization_alerts"."rule" is not null)),
	CONSTRAINT "organization_alerts_severity_check" CHECK ("organization_alerts"."severity" in ('information', 'attention', 'urgent'))
);
--> statement-breakpoint
-- No row-level security: prevention_alerts is a directory table — alerts a broker writes for its
-- environment (decision 037), the environment's data, not an organization's; read and written in
-- system scope by the superadmin's checked calls; each organization sees its own copies in
-- organization_alerts, under forced RLS.
CREATE TABLE "prevention_alerts" (
	"uuid" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"environment_uuid" uuid NOT NULL,
	"author_uuid" uuid,
	"title" text NOT NULL,
	"body" text NOT NULL,
	"severity" text NOT NULL,
	"target_kind" text NOT NULL,
	"target_rule" text,
	"publish_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "prevention_alerts_severity_check" CHECK ("prevention_alerts"."severity" in ('information', 'attention', 'urgent')),
	CONSTRAINT "prevention_alerts_target_check" CHECK ("prevention_alerts"."target_kind" in ('all', 'organizations', 'rule') and ("prevention_alerts"."target_kind" = 'rule') = ("prevention_alerts"."target_rule" is not null))
);
--> statement-breakpoint
ALTER TABLE "environment_users" ADD COLUMN "alert_digest" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "alert_reads" ADD CONSTRAINT "alert_reads_organization_uuid_organizations_uuid_fk" FOREIGN KEY ("organization_uuid") REFERENCES "public"."organizations"("uuid") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alert_reads" ADD CONSTRAINT "alert_reads_alert_uuid_organization_alerts_uuid_fk" FOREIGN KEY ("alert_uuid") REFERENCES "public"."organization_alerts"("uuid") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alert_reads" ADD CONSTRAINT "alert_reads_user_uuid_users_uuid_fk" FOREIGN KEY ("user_uuid") REFERENCES "public"."users"("uuid") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "organization_alerts" ADD CONSTRAINT "organization_alerts_organization_uuid_organizations_uuid_fk" FOREIGN KEY ("organization_uuid") REFERENCES "public"."organizations"("uuid") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "organization_alerts" ADD CONSTRAINT "organization_alerts_prevention_alert_uuid_prevention_alerts_uuid_fk" FOREIGN KEY ("prevention_alert_uuid") REFERENCES "public"."prevention_alerts"("uuid") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "prevention_alerts" ADD CONSTRAINT "prevention_alerts_environment_uuid_environments_uuid_fk" FOREIGN KEY ("environment_uuid") REFERENCES "public"."environments"("uuid") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "prevention_alerts" ADD CONSTRAINT "prevention_alerts_author_uuid_users_uuid_fk" FOREIGN KEY ("author_uuid") REFERENCES "public"."users"("uuid") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "alert_reads_alert_user_key" ON "alert_reads" USING btree ("alert_uuid","user_uuid");--> statement-breakpoint
CREATE INDEX "alert_reads_user_idx" ON "alert_reads" USING btree ("user_uuid");--> statement-breakpoint
CREATE UNIQUE INDEX "organization_alerts_cause_key" ON "organization_alerts" USING btree ("organization_uuid","cause_key");--> statement-breakpoint
CREATE UNIQUE INDEX "organization_alerts_written_key" ON "organization_alerts" USING btree ("prevention_alert_uuid","organization_uuid");--> statement-breakpoint
CREATE INDEX "organization_alerts_published_idx" ON "organization_alerts" USING btree ("organization_uuid","published_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "organization_alerts_digest_idx" ON "organization_alerts" USING btree ("organization_uuid") WHERE "organization_alerts"."source" = 'automatic' and "organization_alerts"."digested_at" is null;--> statement-breakpoint
CREATE INDEX "prevention_alerts_environment_idx" ON "prevention_alerts" USING btree ("environment_uuid","publish_at" DESC NULLS LAST);--> statement-breakpoint
-- Hand-written (Drizzle has no FORCE): an organization's alerts and who of it read them are its
-- data (decision 002). prevention_alerts is the environment's (its superadmins', system scope).
SELECT flotte_tenant_table('organization_alerts');--> statement-breakpoint
SELECT flotte_tenant_table('alert_reads');
