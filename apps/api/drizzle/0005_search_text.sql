DROP INDEX "drivers_search_trgm_idx";--> statement-breakpoint
DROP INDEX "sinisters_search_trgm_idx";--> statement-breakpoint
DROP INDEX "vehicules_search_trgm_idx";--> statement-breakpoint
ALTER TABLE "drivers" ADD COLUMN "search_text" text GENERATED ALWAYS AS (lower(f_unaccent("drivers"."first_name" || ' ' || "drivers"."last_name" || ' ' || coalesce("drivers"."email", '') || ' ' || coalesce("drivers"."phone", '')))) STORED;--> statement-breakpoint
ALTER TABLE "sinisters" ADD COLUMN "search_text" text GENERATED ALWAYS AS (lower(f_unaccent(coalesce("sinisters"."sinister_intermediate_ref", '') || ' ' || coalesce("sinisters"."immatriculation", '') || ' ' || coalesce("sinisters"."city", '')))) STORED;--> statement-breakpoint
ALTER TABLE "vehicules" ADD COLUMN "search_text" text GENERATED ALWAYS AS (lower(f_unaccent(coalesce("vehicules"."immatriculation", '') || ' ' || coalesce("vehicules"."brand", '') || ' ' || coalesce("vehicules"."model", '')))) STORED;--> statement-breakpoint
CREATE INDEX "drivers_search_trgm_idx" ON "drivers" USING gin ("search_text" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "sinisters_search_trgm_idx" ON "sinisters" USING gin ("search_text" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "vehicules_search_trgm_idx" ON "vehicules" USING gin ("search_text" gin_trgm_ops);