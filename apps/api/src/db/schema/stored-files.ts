import { bigint, check, index, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { sql } from 'drizzle-orm';
import { organizations } from './organizations.js';

/**
 * Every committed file of the storage (platform/storage/files.ts): the row is the truth. A
 * temporary object whose row exists is committed by the cleanup job; one without is removed.
 * Feature tables reference key.
 */
export const storedFiles = pgTable(
  'stored_files',
  {
    /** `<organization uuid>/<random uuid>`: never a user's file name. */
    key: text().primaryKey(),
    organizationUuid: uuid()
      .notNull()
      .references(() => organizations.uuid, { onDelete: 'cascade' }),
    sizeBytes: bigint({ mode: 'number' }).notNull(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('stored_files_organization_idx').on(t.organizationUuid),
    // An organization's files live under its own prefix, whatever the code above does.
    check('stored_files_key_in_organization', sql`starts_with(${t.key}, ${t.organizationUuid}::text || '/')`),
    check('stored_files_size_check', sql`${t.sizeBytes} >= 0`),
  ],
);
