DROP INDEX "drivers_org_last_name_idx";--> statement-breakpoint
DROP INDEX "drivers_org_first_name_idx";--> statement-breakpoint
DROP INDEX "sinisters_org_city_idx";--> statement-breakpoint
DROP INDEX "vehicules_org_brand_idx";--> statement-breakpoint
DROP INDEX "vehicules_org_model_idx";--> statement-breakpoint
ALTER TABLE "drivers" ADD COLUMN "last_name_key" text GENERATED ALWAYS AS (lower(f_unaccent("drivers"."last_name"))) STORED;--> statement-breakpoint
ALTER TABLE "drivers" ADD COLUMN "first_name_key" text GENERATED ALWAYS AS (lower(f_unaccent("drivers"."first_name"))) STORED;--> statement-breakpoint
ALTER TABLE "register_counts" ADD COLUMN "version" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "sinisters" ADD COLUMN "city_key" text GENERATED ALWAYS AS (lower(f_unaccent("sinisters"."city"))) STORED;--> statement-breakpoint
ALTER TABLE "vehicules" ADD COLUMN "brand_key" text GENERATED ALWAYS AS (lower(f_unaccent("vehicules"."brand"))) STORED;--> statement-breakpoint
ALTER TABLE "vehicules" ADD COLUMN "model_key" text GENERATED ALWAYS AS (lower(f_unaccent("vehicules"."model"))) STORED;--> statement-breakpoint
CREATE INDEX "drivers_org_last_name_idx" ON "drivers" USING btree ("organization_uuid","last_name_key","first_name_key","uuid");--> statement-breakpoint
CREATE INDEX "drivers_org_first_name_idx" ON "drivers" USING btree ("organization_uuid","first_name_key","last_name_key","uuid");--> statement-breakpoint
CREATE INDEX "sinisters_org_city_idx" ON "sinisters" USING btree ("organization_uuid","city_key","uuid");--> statement-breakpoint
CREATE INDEX "vehicules_org_brand_idx" ON "vehicules" USING btree ("organization_uuid","brand_key","uuid");--> statement-breakpoint
CREATE INDEX "vehicules_org_model_idx" ON "vehicules" USING btree ("organization_uuid","model_key","uuid");