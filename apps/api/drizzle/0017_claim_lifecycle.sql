-- A claim as an insurer follows it (decision 024): a status with its dates, paid and reserved
-- amounts, and total_cost_cents kept by PostgreSQL as their sum. Existing claims become open
-- claims whose whole cost is reserved (nothing says what was paid), opened on their date.
ALTER TABLE "sinisters" ADD COLUMN "status" text DEFAULT 'open' NOT NULL;--> statement-breakpoint
ALTER TABLE "sinisters" ADD COLUMN "opened_at" date;--> statement-breakpoint
ALTER TABLE "sinisters" ADD COLUMN "closed_at" date;--> statement-breakpoint
ALTER TABLE "sinisters" ADD COLUMN "paid_cents" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "sinisters" ADD COLUMN "reserve_cents" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "sinisters" ADD COLUMN "description" text;--> statement-breakpoint
UPDATE "sinisters" SET "reserve_cents" = "total_cost_cents", "opened_at" = "sinister_date";--> statement-breakpoint
ALTER TABLE "sinisters" DROP CONSTRAINT "sinisters_total_cost_check";--> statement-breakpoint
-- Dropping the column drops its sort index (sinisters_org_cost_idx) and the dashboard's index
-- that includes it (sinisters_dashboard_idx, migration 0015), both made again below.
ALTER TABLE "sinisters" DROP COLUMN "total_cost_cents";--> statement-breakpoint
ALTER TABLE "sinisters" ADD COLUMN "total_cost_cents" bigint GENERATED ALWAYS AS ("sinisters"."paid_cents" + "sinisters"."reserve_cents") STORED NOT NULL;--> statement-breakpoint
CREATE INDEX "sinisters_org_cost_idx" ON "sinisters" USING btree ("organization_uuid","total_cost_cents","uuid");--> statement-breakpoint
CREATE INDEX sinisters_dashboard_idx ON sinisters (organization_uuid, sinister_date)
  INCLUDE (total_cost_cents, is_declared, guarantee_uuid, responsibility_rate, vehicule_uuid, driver_uuid)
  WHERE archived_at IS NULL;--> statement-breakpoint
ALTER TABLE "sinisters" ADD CONSTRAINT "sinisters_paid_check" CHECK ("sinisters"."paid_cents" >= 0);--> statement-breakpoint
ALTER TABLE "sinisters" ADD CONSTRAINT "sinisters_reserve_check" CHECK ("sinisters"."reserve_cents" >= 0);--> statement-breakpoint
ALTER TABLE "sinisters" ADD CONSTRAINT "sinisters_status_check" CHECK ("sinisters"."status" in ('open', 'inProgress', 'closed', 'refused'));--> statement-breakpoint
ALTER TABLE "sinisters" ADD CONSTRAINT "sinisters_settled_check" CHECK (("sinisters"."status" in ('closed', 'refused')) = ("sinisters"."closed_at" is not null) and ("sinisters"."status" not in ('closed', 'refused') or "sinisters"."reserve_cents" = 0));
