import { sql } from 'drizzle-orm';
import { check, index, integer, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { organizations } from './organizations.js';
import { users } from './users.js';

export const IDEMPOTENCY_STATES = ['pending', 'effect', 'done'] as const;

/**
 * The `Idempotency-Key`s of an organization's requests (lib/idempotency.ts, decision 050), one row
 * per caller, route and key:
 * - `pending`: a request holds the key (`claim`) until `locked_until`, which it pushes back while
 *   it runs; a lease run out means its process died before its change committed;
 * - `effect`: the request's change committed (marked in the change's own transaction), its answer
 *   not stored yet — or never, if the process died in between;
 * - `done`: its answer (status, content type, body as sent) is replayed to a retry whose
 *   fingerprint (method, URL, body) is the same.
 * Removed 24 h after its first request (`expires_at`, the idempotency.sweep job).
 */
export const idempotencyKeys = pgTable(
  'idempotency_keys',
  {
    organizationUuid: uuid()
      .notNull()
      .references(() => organizations.uuid, { onDelete: 'cascade' }),
    userUuid: uuid()
      .notNull()
      .references(() => users.uuid, { onDelete: 'cascade' }),
    /** The route as declared: `POST /api/document/upload`. */
    route: text().notNull(),
    key: text().notNull(),
    state: text({ enum: IDEMPOTENCY_STATES }).notNull().default('pending'),
    /** The request holding a pending key (a random uuid per request). */
    claim: uuid(),
    lockedUntil: timestamp({ withTimezone: true }),
    /** SHA-256 of the method, URL, content type and body (a multipart boundary left out); known once the body is read. */
    fingerprint: text(),
    statusCode: integer(),
    contentType: text(),
    body: text(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp({ withTimezone: true }).notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.organizationUuid, t.userUuid, t.route, t.key] }),
    index('idempotency_keys_expiry_idx').on(t.expiresAt),
    check('idempotency_keys_state_check', sql`${t.state} in (${sql.raw(IDEMPOTENCY_STATES.map((state) => `'${state}'`).join(', '))})`),
    check('idempotency_keys_key_check', sql`length(${t.key}) between 1 and 255`),
  ],
);
