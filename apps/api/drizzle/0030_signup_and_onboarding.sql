-- Signup and onboarding (decision 033). email_confirmation_tokens: no row-level security, like
-- password_reset_tokens (0023): a user's confirmation links, asked for before any organization
-- exists, read and written in system scope only, holding only a SHA-256 of each token.
-- users.email_confirmed_at defaults to now(): every existing user is confirmed, and so is every
-- account made another way than the public signup (seed, tests, broker, invitation); the signup
-- inserts null. The organization's new columns are covered by its existing tenant policy.
-- The tenant role has no privilege on the tokens (like 0027's).
-- No row-level security: email_confirmation_tokens is a directory table — a new account's
-- confirmation links (decision 033), asked for before any organization exists; system scope only,
-- the tenant role has no privilege on it.
CREATE TABLE "email_confirmation_tokens" (
	"uuid" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_uuid" uuid NOT NULL,
	"token_hash" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "email_confirmation_tokens_tokenHash_unique" UNIQUE("token_hash")
);
--> statement-breakpoint
ALTER TABLE "organizations" ADD COLUMN "siren" text;--> statement-breakpoint
ALTER TABLE "organizations" ADD COLUMN "siret" text;--> statement-breakpoint
ALTER TABLE "organizations" ADD COLUMN "address" text;--> statement-breakpoint
ALTER TABLE "organizations" ADD COLUMN "fleet_size" text;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "email_confirmed_at" timestamp with time zone DEFAULT now();--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "onboarding_step" text;--> statement-breakpoint
ALTER TABLE "email_confirmation_tokens" ADD CONSTRAINT "email_confirmation_tokens_user_uuid_users_uuid_fk" FOREIGN KEY ("user_uuid") REFERENCES "public"."users"("uuid") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "email_confirmation_tokens_user_idx" ON "email_confirmation_tokens" USING btree ("user_uuid");--> statement-breakpoint
REVOKE ALL ON "email_confirmation_tokens" FROM flotte_app;
--> statement-breakpoint
GRANT SELECT, INSERT, UPDATE, DELETE ON "email_confirmation_tokens" TO flotte_system;
