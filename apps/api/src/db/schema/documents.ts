import { type SQL, sql } from 'drizzle-orm';
import { type AnyPgColumn, bigint, check, date, index, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { organizations } from './organizations.js';
import { storedFiles } from './stored-files.js';
import { users } from './users.js';

export const DOCUMENT_KINDS = ['folder', 'file'] as const;
export const DOCUMENT_ENTITY_TYPES = ['driver', 'vehicule', 'sinister'] as const;

/**
 * The document management (GED, issue 14, decision 030-documents): folders and files in one tree
 * per organization. A file's bytes live in the platform storage (stored_files, decision 019); its
 * row keeps the user's (cleaned) name, its size and the media type read from its bytes.
 * Deleting moves a row and its subtree to the trash (deleted_at, trashed_with = the uuid whose
 * deletion took them), restored together. The names of a folder's live children are unique
 * (case-insensitive): checked under the organization's tree lock, and in a folder (not at the
 * root, whose parent is null) also by a hand-written unique index of the migration.
 */
export const documents = pgTable(
  'documents',
  {
    uuid: uuid().primaryKey().defaultRandom(),
    organizationUuid: uuid()
      .notNull()
      .references(() => organizations.uuid, { onDelete: 'cascade' }),
    /**
     * The folder holding it; null at the root ('Mes documents'). Of the same organization: the
     * trigger documents_parent_check of the migration (a composite foreign key would be stronger,
     * but the move to PostgreSQL, backup/import-to-postgres.ts, can only defer a nullable one).
     */
    parentUuid: uuid().references((): AnyPgColumn => documents.uuid),
    kind: text({ enum: DOCUMENT_KINDS }).notNull(),
    name: text().notNull(),
    /** Lower-cased, unaccented name: the search and the sort (decision 004). */
    nameKey: text()
      .notNull()
      .generatedAlwaysAs((): SQL => sql`lower(f_unaccent(${documents.name}))`),
    fileKey: text().references(() => storedFiles.key),
    sizeBytes: bigint({ mode: 'number' }),
    /** Decided from the bytes (file-type), never from the name or the client's Content-Type. */
    mediaType: text(),
    authorUuid: uuid().references(() => users.uuid, { onDelete: 'set null' }),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    /** In the trash since then (kept 30 days). */
    deletedAt: timestamp({ withTimezone: true }),
    /** The document whose deletion put this one in the trash (itself for the one deleted). */
    trashedWith: uuid(),
    /** A green card, a licence…: the date it stops being valid. */
    expiresOn: date({ mode: 'string' }),
    /** An attachment of a driver, a vehicle or a claim (issue 14, to come). */
    entityType: text({ enum: DOCUMENT_ENTITY_TYPES }),
    entityUuid: uuid(),
  },
  (t) => [
    index('documents_children_idx')
      .on(t.organizationUuid, t.parentUuid, t.kind.desc(), t.nameKey, t.uuid)
      .where(sql`${t.deletedAt} is null`),
    index('documents_trash_idx')
      .on(t.organizationUuid, t.deletedAt)
      .where(sql`${t.deletedAt} is not null and ${t.trashedWith} = ${t.uuid}`),
    index('documents_trashed_with_idx')
      .on(t.organizationUuid, t.trashedWith)
      .where(sql`${t.trashedWith} is not null`),
    index('documents_expiry_idx')
      .on(t.organizationUuid, t.expiresOn)
      .where(sql`${t.expiresOn} is not null and ${t.deletedAt} is null`),
    index('documents_entity_idx')
      .on(t.organizationUuid, t.entityType, t.entityUuid)
      .where(sql`${t.entityUuid} is not null`),
    index('documents_file_key_idx').on(t.fileKey),
    // The media library (/media): every live file, newest first.
    index('documents_media_idx')
      .on(t.organizationUuid, t.createdAt.desc(), t.uuid.desc())
      .where(sql`${t.kind} = 'file' and ${t.deletedAt} is null`),
    check('documents_kind_check', sql`${t.kind} in ('folder', 'file')`),
    check('documents_name_check', sql`char_length(${t.name}) between 1 and 255`),
    check('documents_not_own_parent', sql`${t.parentUuid} <> ${t.uuid}`),
    check(
      'documents_file_fields',
      sql`(${t.kind} = 'folder' and ${t.fileKey} is null and ${t.sizeBytes} is null and ${t.mediaType} is null) or (${t.kind} = 'file' and ${t.fileKey} is not null and ${t.sizeBytes} >= 0 and ${t.mediaType} is not null)`,
    ),
    check('documents_trash_check', sql`(${t.deletedAt} is null) = (${t.trashedWith} is null)`),
    check('documents_entity_check', sql`(${t.entityType} is null) = (${t.entityUuid} is null)`),
  ],
);

/**
 * An expiry raised by the daily job documents.expiry-notices (issue 14): a live document expired
 * or expiring within DOCUMENT_EXPIRY_NOTICE_DAYS, told once to the organization's administrators.
 * One row per document and expiry date: a rerun raises nothing twice, a new date raises again.
 * The alerts feature reads these rows.
 */
export const documentExpiryNotices = pgTable(
  'document_expiry_notices',
  {
    uuid: uuid().primaryKey().defaultRandom(),
    organizationUuid: uuid()
      .notNull()
      .references(() => organizations.uuid, { onDelete: 'cascade' }),
    documentUuid: uuid()
      .notNull()
      .references(() => documents.uuid, { onDelete: 'cascade' }),
    expiresOn: date({ mode: 'string' }).notNull(),
    raisedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('document_expiry_notices_document_expiry_key').on(t.documentUuid, t.expiresOn),
    index('document_expiry_notices_raised_idx').on(t.organizationUuid, t.raisedAt),
  ],
);
