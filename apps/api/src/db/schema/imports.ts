import { sql } from 'drizzle-orm';
import { check, index, integer, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { organizations } from './organizations.js';
import { storedFiles } from './stored-files.js';
import { users } from './users.js';

export const IMPORT_STATUSES = ['previewed', 'queued', 'running', 'committed', 'failed', 'reverted'] as const;

/**
 * A spreadsheet import (issue 13): its file in the platform storage, the mapping it was committed
 * with, where it stands and what it did. Its state is here, so a restart between preview and
 * commit loses nothing.
 */
export const imports = pgTable(
  'imports',
  {
    uuid: uuid().primaryKey().defaultRandom(),
    organizationUuid: uuid()
      .notNull()
      .references(() => organizations.uuid, { onDelete: 'cascade' }),
    authorUuid: uuid().references(() => users.uuid, { onDelete: 'set null' }),
    entity: text({ enum: ['driver', 'vehicule', 'sinister'] }).notNull(),
    fileName: text().notNull(),
    fileKey: text()
      .notNull()
      .references(() => storedFiles.key),
    /** XLSX: the sheet read (the validation and the commit read it again); null for a CSV. */
    sheet: text(),
    rowCount: integer().notNull(),
    /** The file's headers (the mapping's column indexes point into them). */
    headers: jsonb().$type<string[]>().notNull(),
    /**
     * The mapping and mode of the last validation, then of the commit (the next import of this
     * entity starts from a committed one's; the errors' download reads the validation's).
     */
    mapping: jsonb().$type<Record<string, number | null>>(),
    mode: text({ enum: ['upsert', 'compare'] }),
    status: text({ enum: IMPORT_STATUSES }).notNull().default('previewed'),
    percent: integer().notNull().default(0),
    counts: jsonb().$type<{ created: number; updated: number; unchanged: number; skipped: number; exited: number }>(),
    error: text(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    committedAt: timestamp({ withTimezone: true }),
    revertedAt: timestamp({ withTimezone: true }),
  },
  (t) => [
    index('imports_organization_idx').on(t.organizationUuid, t.createdAt),
    index('imports_last_mapping_idx').on(t.organizationUuid, t.entity, t.committedAt),
    check('imports_status_check', sql`${t.status} in ('previewed', 'queued', 'running', 'committed', 'failed', 'reverted')`),
    check('imports_percent_check', sql`${t.percent} between 0 and 100`),
  ],
);

/**
 * What a committed import did to each row, for its revert: `before` holds the columns it changed
 * as they were; `written_at` the row's updated_at once written (a later edit moves it).
 */
export const importChanges = pgTable(
  'import_changes',
  {
    importUuid: uuid()
      .notNull()
      .references(() => imports.uuid, { onDelete: 'cascade' }),
    organizationUuid: uuid()
      .notNull()
      .references(() => organizations.uuid, { onDelete: 'cascade' }),
    recordUuid: uuid().notNull(),
    action: text({ enum: ['created', 'updated', 'exited'] }).notNull(),
    before: jsonb().$type<Record<string, unknown>>(),
    writtenAt: timestamp({ withTimezone: true }).notNull(),
  },
  (t) => [index('import_changes_import_idx').on(t.importUuid), check('import_changes_action_check', sql`${t.action} in ('created', 'updated', 'exited')`)],
);
