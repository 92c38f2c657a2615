-- The account page (decision 036). refresh_tokens.user_agent: the device a session was opened on,
-- shown on /account. email_change_tokens: no row-level security, a user's data and not an
-- organization's (like refresh_tokens and password_reset_tokens, migration 0023): read and written
-- in system scope only, and holding only a SHA-256 of each token; the tenant role has no privilege
-- on it (0027).
-- No row-level security: email_change_tokens is a directory table — a user's e-mail change links
-- (decision 036), not an organization's data; read and written in system scope only, the tenant
-- role has no privilege on it.
CREATE TABLE "email_change_tokens" (
	"uuid" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_uuid" uuid NOT NULL,
	"new_email" text NOT NULL,
	"token_hash" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "email_change_tokens_tokenHash_unique" UNIQUE("token_hash")
);
--> statement-breakpoint
ALTER TABLE "refresh_tokens" ADD COLUMN "user_agent" text;--> statement-breakpoint
ALTER TABLE "email_change_tokens" ADD CONSTRAINT "email_change_tokens_user_uuid_users_uuid_fk" FOREIGN KEY ("user_uuid") REFERENCES "public"."users"("uuid") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "email_change_tokens_user_idx" ON "email_change_tokens" USING btree ("user_uuid");--> statement-breakpoint
REVOKE ALL ON "email_change_tokens" FROM flotte_app;
--> statement-breakpoint
GRANT SELECT, INSERT, UPDATE, DELETE ON "email_change_tokens" TO flotte_system;
