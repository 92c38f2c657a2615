-- A register's search reads its organization's trigrams only: the trigram index gains the
-- organization as its first key (btree_gin gives uuids a GIN operator class), so a search in a
-- small organization no longer pays for every other organization's rows (decision 012).
CREATE EXTENSION IF NOT EXISTS btree_gin;--> statement-breakpoint
DROP INDEX "drivers_search_trgm_idx";--> statement-breakpoint
DROP INDEX "sinisters_search_trgm_idx";--> statement-breakpoint
DROP INDEX "vehicules_search_trgm_idx";--> statement-breakpoint
CREATE INDEX "drivers_org_search_trgm_idx" ON "drivers" USING gin ("organization_uuid","search_text" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "sinisters_org_search_trgm_idx" ON "sinisters" USING gin ("organization_uuid","search_text" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "vehicules_org_search_trgm_idx" ON "vehicules" USING gin ("organization_uuid","search_text" gin_trgm_ops);