-- Hand-written. The users' secrets — their sessions (refresh_tokens) and recovery links
-- (password_reset_tokens), kept as SHA-256 hashes — are directory tables without row-level
-- security, read and written in system scope only (sign-in, refresh, recovery, the request's
-- context). Like failure_counters (0013), the tenant role loses the privileges the default
-- privileges of 0001 gave it: a tenant-scoped query can never reach them, whatever its policy.
-- (apps/api/src/db/table-security.test.ts holds the list.)
REVOKE ALL ON "refresh_tokens" FROM flotte_app;
--> statement-breakpoint
REVOKE ALL ON "password_reset_tokens" FROM flotte_app;
--> statement-breakpoint
GRANT SELECT, INSERT, UPDATE, DELETE ON "refresh_tokens", "password_reset_tokens" TO flotte_system;
