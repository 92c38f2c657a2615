ALTER TABLE "environment_tiers" ADD COLUMN "price_cents" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "environment_tiers" ADD COLUMN "included_organizations" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "environment_tiers" ADD COLUMN "free_organizations" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "environment_tiers_environment_start_key" ON "environment_tiers" USING btree ("environment_uuid","start_at");--> statement-breakpoint
ALTER TABLE "environment_tiers" ADD CONSTRAINT "environment_tiers_counts_check" CHECK ("environment_tiers"."price_cents" >= 0 and "environment_tiers"."included_organizations" >= 0 and "environment_tiers"."free_organizations" >= 0);