-- Two-factor sign-in (decision 035). No row-level security on these four tables: like
-- refresh_tokens and password_reset_tokens (migration 0023) they hold a user's own data, not an
-- organization's, asked for before any organization is known (the login's second step); they are
-- read and written in system scope only (withSystem/readSystem). The TOTP key is stored encrypted
-- (AES-256-GCM), recovery codes as an HMAC, challenges and remembered browsers as SHA-256.
-- The tenant role has no privilege on them (like 0027's).
-- No row-level security: login_challenges is a directory table — the login's second steps (decision
-- 035), before any organization is known; system scope only, the tenant role has no privilege on
-- it.
CREATE TABLE "login_challenges" (
	"uuid" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_uuid" uuid NOT NULL,
	"token_hash" text NOT NULL,
	"mode" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "login_challenges_tokenHash_unique" UNIQUE("token_hash")
);
--> statement-breakpoint
-- No row-level security: totp_recovery_codes is a directory table — a user's recovery codes
-- (decision 035), not an organization's data; system scope only, the tenant role has no privilege
-- on it.
CREATE TABLE "totp_recovery_codes" (
	"uuid" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_uuid" uuid NOT NULL,
	"code_hash" text NOT NULL,
	"used_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
-- No row-level security: trusted_devices is a directory table — browsers a user asked to remember
-- (decision 035), not an organization's data; system scope only, the tenant role has no privilege
-- on it.
CREATE TABLE "trusted_devices" (
	"uuid" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_uuid" uuid NOT NULL,
	"token_hash" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "trusted_devices_tokenHash_unique" UNIQUE("token_hash")
);
--> statement-breakpoint
-- No row-level security: user_totp is a directory table — a user's two-factor key (decision 035),
-- not an organization's data; system scope only, the tenant role has no privilege on it.
CREATE TABLE "user_totp" (
	"user_uuid" uuid PRIMARY KEY NOT NULL,
	"secret" text NOT NULL,
	"enabled_at" timestamp with time zone,
	"last_step" bigint,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "environments" ADD COLUMN "require_superadmin_totp" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "login_challenges" ADD CONSTRAINT "login_challenges_user_uuid_users_uuid_fk" FOREIGN KEY ("user_uuid") REFERENCES "public"."users"("uuid") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "totp_recovery_codes" ADD CONSTRAINT "totp_recovery_codes_user_uuid_users_uuid_fk" FOREIGN KEY ("user_uuid") REFERENCES "public"."users"("uuid") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "trusted_devices" ADD CONSTRAINT "trusted_devices_user_uuid_users_uuid_fk" FOREIGN KEY ("user_uuid") REFERENCES "public"."users"("uuid") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_totp" ADD CONSTRAINT "user_totp_user_uuid_users_uuid_fk" FOREIGN KEY ("user_uuid") REFERENCES "public"."users"("uuid") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "login_challenges_user_idx" ON "login_challenges" USING btree ("user_uuid");--> statement-breakpoint
CREATE UNIQUE INDEX "totp_recovery_codes_user_code_key" ON "totp_recovery_codes" USING btree ("user_uuid","code_hash");--> statement-breakpoint
CREATE INDEX "trusted_devices_user_idx" ON "trusted_devices" USING btree ("user_uuid");--> statement-breakpoint
REVOKE ALL ON "user_totp" FROM flotte_app;
--> statement-breakpoint
REVOKE ALL ON "totp_recovery_codes" FROM flotte_app;
--> statement-breakpoint
REVOKE ALL ON "login_challenges" FROM flotte_app;
--> statement-breakpoint
REVOKE ALL ON "trusted_devices" FROM flotte_app;
--> statement-breakpoint
GRANT SELECT, INSERT, UPDATE, DELETE ON "user_totp", "totp_recovery_codes", "login_challenges", "trusted_devices" TO flotte_system;
