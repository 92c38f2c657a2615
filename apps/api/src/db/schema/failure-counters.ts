import { bigint, index, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * Failures counted per key in a sliding window, shared by every API process on one PostgreSQL
 * server (login limits: lib/login-limits.ts, platform/failure-stores.ts). Keyed by a hash of an
 * account's address and a client's IP address — no organization's data: outside row-level
 * security, read and written by the system role only (the tenant role has no privilege on it).
 */
export const failureCounters = pgTable(
  'failure_counters',
  {
    /** SHA-256 of the limiter's key (no e-mail or IP address kept in clear). */
    key: text().primaryKey(),
    /** The latest failures, milliseconds since the epoch, oldest first. */
    failures: bigint({ mode: 'number' }).array().notNull(),
    /** When the last failure leaves the window: the row may then be deleted. */
    expiresAt: timestamp({ withTimezone: true }).notNull(),
  },
  (t) => [index('failure_counters_expires_at_idx').on(t.expiresAt)],
);
