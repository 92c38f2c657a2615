CREATE TABLE "failure_counters" (
	"key" text PRIMARY KEY NOT NULL,
	"failures" bigint[] NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE INDEX "failure_counters_expires_at_idx" ON "failure_counters" USING btree ("expires_at");
--> statement-breakpoint
-- Hand-written: not an organization's data, so no row-level security (decision 0XX); the tenant
-- role gets no privilege on it (the default privileges of 0001 gave it some), the system role keeps its own.
REVOKE ALL ON "failure_counters" FROM flotte_app;
--> statement-breakpoint
GRANT SELECT, INSERT, UPDATE, DELETE ON "failure_counters" TO flotte_system;
