import { uuidList } from '../../db/uuid-list.js';
import { and, asc, count, desc, eq, inArray, isNotNull, isNull, type SQL, sql } from 'drizzle-orm';
import type { ReadTx, WriteTx } from '../../db/scope.js';
import { documents } from '../../db/schema/documents.js';
import { storedFiles } from '../../db/schema/stored-files.js';
import { users } from '../../db/schema/users.js';
import { searchTextMatches, searchPatterns } from '../../db/search.js';

export type DocumentRow = typeof documents.$inferSelect;
export type DocumentWithAuthor = { row: DocumentRow; author: { uuid: string; firstName: string; lastName: string } | null };

/** Every read of this module runs under its organization's row-level security (withTenant / readTenant). */
const live = isNull(documents.deletedAt);

/** The rows of a raw statement (both drivers answer { rows }). */
async function rowsOf<T>(tx: ReadTx, query: SQL): Promise<T[]> {
  return ((await tx.execute(query)) as unknown as { rows: T[] }).rows;
}

function withAuthors(tx: ReadTx) {
  return tx
    .select({ row: documents, authorUuid: users.uuid, firstName: users.firstName, lastName: users.lastName })
    .from(documents)
    .leftJoin(users, eq(users.uuid, documents.authorUuid));
}

function toItems(rows: { row: DocumentRow; authorUuid: string | null; firstName: string | null; lastName: string | null }[]): DocumentWithAuthor[] {
  return rows.map(({ row, authorUuid, firstName, lastName }) => ({
    row,
    author: authorUuid ? { uuid: authorUuid, firstName: firstName ?? '', lastName: lastName ?? '' } : null,
  }));
}

export async function findWithAuthor(tx: ReadTx, uuid: string): Promise<DocumentWithAuthor | null> {
  return toItems(await withAuthors(tx).where(eq(documents.uuid, uuid)).limit(1))[0] ?? null;
}

export async function findManyWithAuthor(tx: ReadTx, uuids: string[]): Promise<DocumentWithAuthor[]> {
  if (uuids.length === 0) return [];
  return toItems(await withAuthors(tx).where(inArray(documents.uuid, uuids)));
}

/** A document that is not in the trash. */
export async function findLive(tx: ReadTx, uuid: string): Promise<DocumentRow | null> {
  const [row] = await tx.select().from(documents).where(and(eq(documents.uuid, uuid), live)).limit(1);
  return row ?? null;
}

/** Folders first, then files, each in French reading order of their names. */
const ORDER = [sql`${documents.kind} desc nulls last`, asc(documents.nameKey), asc(documents.uuid)];

/** A folder's live content (root: parent null), or with a search the whole tree's matching names. */
export async function page(tx: ReadTx, where: { parentUuid: string | null; search?: string }, limit: number, offset: number) {
  const condition: SQL = where.search
    ? and(live, searchTextMatches(documents.nameKey, searchPatterns(where.search)))!
    : and(live, where.parentUuid === null ? isNull(documents.parentUuid) : eq(documents.parentUuid, where.parentUuid))!;
  const rows = await withAuthors(tx)
    .where(condition)
    .orderBy(...ORDER)
    .limit(limit)
    .offset(offset);
  const [total] = await tx.select({ n: count() }).from(documents).where(condition);
  return { items: toItems(rows), total: total?.n ?? 0 };
}

/** Live documents whose expiry date is on or before `until` (already expired ones first), soonest first. */
export async function expiringPage(tx: ReadTx, until: string, limit: number, offset: number) {
  const condition = and(live, isNotNull(documents.expiresOn), sql`${documents.expiresOn} <= ${until}`)!;
  const rows = await withAuthors(tx)
    .where(condition)
    .orderBy(asc(documents.expiresOn), asc(documents.nameKey), asc(documents.uuid))
    .limit(limit)
    .offset(offset);
  const [total] = await tx.select({ n: count() }).from(documents).where(condition);
  return { items: toItems(rows), total: total?.n ?? 0 };
}

/** The trash: the documents deleted themselves (not those that went with a folder), latest first. */
export async function trashPage(tx: ReadTx, limit: number, offset: number) {
  const condition = and(isNotNull(documents.deletedAt), eq(documents.trashedWith, documents.uuid))!;
  const rows = await withAuthors(tx)
    .where(condition)
    .orderBy(desc(documents.deletedAt), asc(documents.uuid))
    .limit(limit)
    .offset(offset);
  const [total] = await tx.select({ n: count() }).from(documents).where(condition);
  return { items: toItems(rows), total: total?.n ?? 0 };
}

/** The folder and its live ancestors, from the root down; empty when the folder is not a live folder. */
export async function ancestors(tx: ReadTx, folderUuid: string): Promise<{ uuid: string; name: string; parentUuid: string | null }[]> {
  const rows = await rowsOf<{ uuid: string; name: string; parent_uuid: string | null; depth: number }>(tx, sql`
    WITH RECURSIVE chain AS (
      SELECT uuid, name, parent_uuid, 0 AS depth FROM documents
       WHERE uuid = ${folderUuid} AND kind = 'folder' AND deleted_at IS NULL
      UNION ALL
      SELECT d.uuid, d.name, d.parent_uuid, chain.depth + 1 FROM documents d
        JOIN chain ON d.uuid = chain.parent_uuid
       WHERE chain.depth < 1000
    )
    SELECT uuid, name, parent_uuid, depth FROM chain ORDER BY depth DESC`);
  return rows.map((r) => ({ uuid: r.uuid, name: r.name, parentUuid: r.parent_uuid }));
}

/** Whether `folderUuid` is `uuid` or lies in its subtree (a move there would make a cycle). */
export async function isInSubtree(tx: ReadTx, folderUuid: string, uuid: string): Promise<boolean> {
  const chain = await ancestors(tx, folderUuid);
  return chain.some((folder) => folder.uuid === uuid);
}

export async function hasLiveChildren(tx: ReadTx, folderUuid: string): Promise<boolean> {
  const [row] = await tx.select({ uuid: documents.uuid }).from(documents).where(and(eq(documents.parentUuid, folderUuid), live)).limit(1);
  return row !== undefined;
}

/**
 * Serializes the writes that change the tree's shape or the organization's used space (moves,
 * deletions, restores, uploads) within one organization: two crossed moves cannot make a cycle,
 * two uploads cannot both pass the quota. Held until the transaction ends.
 */
export async function lockTree(tx: WriteTx, organizationUuid: string): Promise<void> {
  await tx.execute(sql`SELECT pg_advisory_xact_lock(hashtextextended(${`documents:${organizationUuid}`}, 0))`);
}

/** Bytes of every file of the organization, the trash's included (they are still stored). */
export async function usedBytes(tx: ReadTx): Promise<number> {
  const [row] = await tx.select({ bytes: sql<string>`coalesce(sum(${documents.sizeBytes}), 0)` }).from(documents);
  return Number(row?.bytes ?? 0);
}

/** Whether a live document of the folder (root: null) already has this name, whatever its case. */
export async function nameTaken(tx: ReadTx, parentUuid: string | null, name: string, exceptUuid?: string): Promise<boolean> {
  const [row] = await tx
    .select({ uuid: documents.uuid })
    .from(documents)
    .where(
      and(
        live,
        parentUuid === null ? isNull(documents.parentUuid) : eq(documents.parentUuid, parentUuid),
        sql`lower(${documents.name}) = lower(${name})`,
        exceptUuid ? sql`${documents.uuid} <> ${exceptUuid}` : undefined,
      ),
    )
    .limit(1);
  return row !== undefined;
}

/** Live names in a folder (lower-cased) that start like `prefix`: to find a free one. */
export async function siblingNames(tx: ReadTx, parentUuid: string | null, prefix: string): Promise<Set<string>> {
  const rows = await tx
    .select({ name: sql<string>`lower(${documents.name})` })
    .from(documents)
    .where(
      and(
        live,
        parentUuid === null ? isNull(documents.parentUuid) : eq(documents.parentUuid, parentUuid),
        sql`starts_with(lower(${documents.name}), lower(${prefix}))`,
      ),
    );
  return new Set(rows.map((r) => r.name));
}

export async function insertDocument(tx: WriteTx, values: typeof documents.$inferInsert): Promise<DocumentRow> {
  const [row] = await tx.insert(documents).values(values).returning();
  return row!;
}

export async function updateDocument(tx: WriteTx, uuid: string, values: Partial<typeof documents.$inferInsert>): Promise<DocumentRow | null> {
  const [row] = await tx
    .update(documents)
    .set({ ...values, updatedAt: sql`now()` })
    .where(and(eq(documents.uuid, uuid), live))
    .returning();
  return row ?? null;
}

/** The document and its live subtree go to the trash together, marked with the document's uuid. */
export async function trashSubtree(tx: WriteTx, uuid: string): Promise<number> {
  const rows = await rowsOf<{ uuid: string }>(tx, sql`
    WITH RECURSIVE subtree AS (
      SELECT uuid FROM documents WHERE uuid = ${uuid} AND deleted_at IS NULL
      UNION ALL
      SELECT d.uuid FROM documents d JOIN subtree ON d.parent_uuid = subtree.uuid WHERE d.deleted_at IS NULL
    )
    UPDATE documents SET deleted_at = now(), trashed_with = ${uuid}, updated_at = now()
     WHERE uuid IN (SELECT uuid FROM subtree) RETURNING uuid`);
  return rows.length;
}

/** A document deleted itself (not one that went with its folder). */
export async function findTrashed(tx: ReadTx, uuid: string): Promise<DocumentRow | null> {
  const [row] = await tx
    .select()
    .from(documents)
    .where(and(eq(documents.uuid, uuid), eq(documents.trashedWith, uuid), isNotNull(documents.deletedAt)))
    .limit(1);
  return row ?? null;
}

/** Brings back everything that went to the trash with `uuid`; the document itself under its new parent and name. */
export async function restoreTrashed(tx: WriteTx, uuid: string, top: { parentUuid: string | null; name: string }): Promise<void> {
  // Renamed while still in the trash (outside the unique names' index), then everything back at once.
  await tx.update(documents).set({ parentUuid: top.parentUuid, name: top.name }).where(eq(documents.uuid, uuid));
  await tx.update(documents).set({ deletedAt: null, trashedWith: null, updatedAt: sql`now()` }).where(eq(documents.trashedWith, uuid));
}

/**
 * Removes for good what went to the trash with `uuids`, and whatever was put in the trash earlier
 * inside them (a file deleted before its folder), with their stored files' rows; returns the files'
 * keys, whose objects the caller deletes once this has committed.
 */
export async function purgeTrashed(tx: WriteTx, uuids: string[]): Promise<string[]> {
  if (uuids.length === 0) return [];
  return (await purgeTrees(tx, sql`trashed_with IN (${uuidList(uuids)}) AND deleted_at IS NOT NULL`)).keys;
}

/**
 * Deletes for good every document of an entity (a driver erased): the files and folders linked to
 * it, live or in the trash, and whatever lies under its folders; then their `stored_files` rows.
 * Returns the documents' uuids and the keys of the objects to delete once the transaction commits.
 */
export function purgeEntity(tx: WriteTx, entity: { type: string; uuid: string }): Promise<PurgedTrees> {
  return purgeTrees(tx, sql`entity_type = ${entity.type} AND entity_uuid = ${entity.uuid}::uuid`);
}

export type PurgedTrees = { uuids: string[]; keys: string[] };

/** Deletes the documents `roots` selects and everything under them, then their stored files' rows; returns their uuids and the files' keys. */
async function purgeTrees(tx: WriteTx, roots: SQL): Promise<PurgedTrees> {
  const removed = await rowsOf<{ uuid: string; file_key: string | null }>(tx, sql`
    WITH RECURSIVE doomed AS (
      SELECT uuid FROM documents WHERE ${roots}
      UNION
      SELECT d.uuid FROM documents d JOIN doomed ON d.parent_uuid = doomed.uuid
    )
    DELETE FROM documents WHERE uuid IN (SELECT uuid FROM doomed) RETURNING uuid, file_key`);
  const keys = removed.map((r) => r.file_key).filter((key): key is string => key !== null);
  if (keys.length > 0) await tx.delete(storedFiles).where(inArray(storedFiles.key, keys));
  return { uuids: removed.map((r) => r.uuid), keys };
}

/** The trash's documents deleted before `before`, across organizations (a system read), at most `limit`. */
export async function expiredTrash(tx: ReadTx, before: Date, limit: number): Promise<{ organizationUuid: string; uuid: string }[]> {
  return tx
    .select({ organizationUuid: documents.organizationUuid, uuid: documents.uuid })
    .from(documents)
    .where(and(isNotNull(documents.deletedAt), eq(documents.trashedWith, documents.uuid), sql`${documents.deletedAt} < ${before.toISOString()}`))
    .orderBy(asc(documents.deletedAt))
    .limit(limit);
}
