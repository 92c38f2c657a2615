ALTER TABLE "users" ADD COLUMN "cgu_accepted_version" text;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "cgu_accepted_at" timestamp with time zone;