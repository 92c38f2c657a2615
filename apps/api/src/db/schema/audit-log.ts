import { sql } from 'drizzle-orm';
import { bigint, check, index, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { organizations } from './organizations.js';

/** What a write did to one record (decision 041). */
export const AUDIT_ACTIONS = ['insert', 'update', 'archive', 'restore', 'delete'] as const;

/**
 * The organization's activity log (issue 16, decision 041): one row per record a signed-in person
 * wrote, kept by the trigger `audit_log_record()` of the migration on the organization's business
 * tables, never by a feature. Who (the user's uuid, and its name, e-mail and role as they were),
 * when, what (the kind of record, its uuid and a label), and the fields before and after. Forced
 * row-level security; the roles may only SELECT and INSERT it: a row, once written, never changes.
 */
export const auditLog = pgTable(
  'audit_log',
  {
    id: bigint({ mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    organizationUuid: uuid()
      .notNull()
      .references(() => organizations.uuid, { onDelete: 'cascade' }),
    occurredAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    /** The user who wrote (no foreign key: the entry outlives the account; its name is a snapshot). */
    actorUuid: uuid().notNull(),
    actorName: text().notNull(),
    actorEmail: text().notNull(),
    /** The actor's role at the time: ROOT, SUPERADMIN, ADMIN or USER. */
    actorRole: text().notNull(),
    /** The kind of record: vehicule, driver, sinister, document, member… (AUDIT_ENTITIES of the contract). */
    entity: text().notNull(),
    recordUuid: uuid().notNull(),
    /** What names the record in the log: a plate, a name, a title (as it was). */
    label: text(),
    action: text({ enum: AUDIT_ACTIONS }).notNull(),
    /** The fields the write changed (an update), in the table's column names. */
    changed: text().array(),
    /** The record's fields before the write (update: the changed ones only; insert: null). */
    before: jsonb(),
    /** The record's fields after the write (update: the changed ones only; delete: null). */
    after: jsonb(),
  },
  (t) => [
    index('audit_log_organization_idx').on(t.organizationUuid, t.occurredAt.desc(), t.id.desc()),
    index('audit_log_record_idx').on(t.organizationUuid, t.recordUuid),
    check('audit_log_action_check', sql`${t.action} in ('insert', 'update', 'archive', 'restore', 'delete')`),
  ],
);
