CREATE TABLE "dashboard_configs" (
	"organization_uuid" uuid PRIMARY KEY NOT NULL,
	"loss_ratio_percentage" integer NOT NULL,
	"claim_frequency_percentage" integer NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "dashboard_configs_loss_ratio_check" CHECK ("dashboard_configs"."loss_ratio_percentage" between 1 and 1000),
	CONSTRAINT "dashboard_configs_claim_frequency_check" CHECK ("dashboard_configs"."claim_frequency_percentage" between 1 and 1000)
);
--> statement-breakpoint
CREATE TABLE "indicators" (
	"uuid" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"organization_uuid" uuid NOT NULL,
	"start_date" date NOT NULL,
	"end_date" date NOT NULL,
	"motors_count" integer NOT NULL,
	"cash_received_cents" bigint NOT NULL,
	"previous_indicator_uuid" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "indicators_dates_check" CHECK ("indicators"."start_date" <= "indicators"."end_date"),
	CONSTRAINT "indicators_motors_count_check" CHECK ("indicators"."motors_count" >= 0),
	CONSTRAINT "indicators_cash_received_check" CHECK ("indicators"."cash_received_cents" >= 0)
);
--> statement-breakpoint
ALTER TABLE "dashboard_configs" ADD CONSTRAINT "dashboard_configs_organization_uuid_organizations_uuid_fk" FOREIGN KEY ("organization_uuid") REFERENCES "public"."organizations"("uuid") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "indicators" ADD CONSTRAINT "indicators_organization_uuid_organizations_uuid_fk" FOREIGN KEY ("organization_uuid") REFERENCES "public"."organizations"("uuid") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "indicators" ADD CONSTRAINT "indicators_previous_indicator_uuid_indicators_uuid_fk" FOREIGN KEY ("previous_indicator_uuid") REFERENCES "public"."indicators"("uuid") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "indicators_org_start_idx" ON "indicators" USING btree ("organization_uuid","start_date");--> statement-breakpoint
-- Row-level security with FORCE (decision 002): drizzle-kit has no FORCE, so it is written here.
ALTER TABLE indicators ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
ALTER TABLE indicators FORCE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY tenant_isolation ON indicators TO flotte_app
  USING (organization_uuid = app_current_org()) WITH CHECK (organization_uuid = app_current_org());
--> statement-breakpoint
CREATE POLICY system_access ON indicators TO flotte_system USING (true) WITH CHECK (true);
--> statement-breakpoint
ALTER TABLE dashboard_configs ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
ALTER TABLE dashboard_configs FORCE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY tenant_isolation ON dashboard_configs TO flotte_app
  USING (organization_uuid = app_current_org()) WITH CHECK (organization_uuid = app_current_org());
--> statement-breakpoint
CREATE POLICY system_access ON dashboard_configs TO flotte_system USING (true) WITH CHECK (true);
--> statement-breakpoint
-- The dashboard's figures read claims by date for one organization: one index answers every
-- aggregate (cost, count, by guarantee, responsibility, vehicle, driver) without the table.
CREATE INDEX sinisters_dashboard_idx ON sinisters (organization_uuid, sinister_date)
  INCLUDE (total_cost_cents, is_declared, guarantee_uuid, responsibility_rate, vehicule_uuid, driver_uuid)
  WHERE archived_at IS NULL;
--> statement-breakpoint
-- Fleet size at a date (half-difference N1, fleet over time): entry and exit of real vehicles.
CREATE INDEX vehicules_fleet_idx ON vehicules (organization_uuid, entry_date) INCLUDE (exit_date, archived_at, type)
  WHERE immatriculation IS NOT NULL;
