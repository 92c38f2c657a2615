CREATE TABLE "failure_counters" (
	"key" text PRIMARY KEY NOT NULL,
	"failures" bigint[] NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE INDEX "failure_counters_expires_at_idx" ON "failure_counters" USING btree ("expires_at");
--> statement-breakpoint
-- Hand-written. No row-level security: a directory table of the platform, not an organization's
-- data — its rows are login failure counts keyed by a hash of an e-mail or an address, before any
-- organization is known (decision 020). Instead the tenant role gets no privilege on it at all (the
-- default privileges of 0001 gave it some); only the system role reads and writes it.
REVOKE ALL ON "failure_counters" FROM flotte_app;
--> statement-breakpoint
GRANT SELECT, INSERT, UPDATE, DELETE ON "failure_counters" TO flotte_system;
