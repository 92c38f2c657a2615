import { randomUUID } from 'node:crypto';
import type { Readable } from 'node:stream';
import { and, eq, inArray } from 'drizzle-orm';
import type { Database } from '../../db/client.js';
import { storedFiles } from '../../db/schema/stored-files.js';
import { readSystem, withTenant, type WriteTx } from '../../db/scope.js';
import { NotFoundError } from '../../errors.js';
import type { ByteRange, ObjectStorage, PutOptions, StoredObject } from './storage.js';

/**
 * The staging protocol (decision 019). A file is written under `tmp/<org>/<uuid>` (stage), its
 * row in stored_files is inserted in the caller's transaction with the final key `<org>/<uuid>`,
 * and once that transaction has committed the object is moved to the final key (commit). The row
 * is the truth:
 * - refused file, failed transaction: the temporary object is removed at once (discard);
 * - crash before the transaction commits: a temporary object without a row, removed by the
 *   cleanup job once older than a day;
 * - crash after it, before the move: a row whose object is still temporary; reads find it there
 *   (openStoredFile) and the cleanup job finishes the move.
 */

const TEMPORARY_PREFIX = 'tmp/';
const UUID = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';
const FILE_KEY = new RegExp(`^(${UUID})/${UUID}$`);
const TEMPORARY_KEY = new RegExp(`^tmp/(${UUID}/${UUID})$`);
export const DEFAULT_TEMPORARY_LIFETIME_MS = 24 * 60 * 60 * 1000;

/** A file written under its temporary key, not yet committed. */
export type StagedFile = Readonly<{ organizationUuid: string; key: string; temporaryKey: string; size: number }>;

/** A new key in the organization's space: `<organization uuid>/<random uuid>`. */
export function newFileKey(organizationUuid: string): string {
  const key = `${organizationUuid}/${randomUUID()}`;
  if (!FILE_KEY.test(key)) throw new TypeError(`Not an organization uuid: ${organizationUuid}`);
  return key;
}

export function temporaryKeyOf(key: string): string {
  return TEMPORARY_PREFIX + key;
}

/** Writes the stream under a new temporary key (size limit and refusal as ObjectStorage.put). */
export async function stage(storage: ObjectStorage, organizationUuid: string, body: Readable, options: PutOptions): Promise<StagedFile> {
  const key = newFileKey(organizationUuid);
  const temporaryKey = temporaryKeyOf(key);
  const { size } = await storage.put(temporaryKey, body, options);
  return Object.freeze({ organizationUuid, key, temporaryKey, size });
}

/** The row that makes a staged file real: insert it in the transaction that records the file's use. */
export async function recordStoredFile(tx: WriteTx, file: StagedFile): Promise<void> {
  await tx.insert(storedFiles).values({ key: file.key, organizationUuid: file.organizationUuid, sizeBytes: file.size });
}

/**
 * Moves a staged file to its final key, after its row's transaction has committed. Idempotent:
 * a file already moved (by the cleanup job, or another process) is fine.
 */
export async function commit(storage: ObjectStorage, file: Pick<StagedFile, 'key'>): Promise<void> {
  try {
    await storage.move(temporaryKeyOf(file.key), file.key);
  } catch (error) {
    if (error instanceof NotFoundError && (await movedByAnother(storage, file.key))) return;
    throw error;
  }
}

/**
 * The source is gone: another process moved it. Its copy may still be being written on a store
 * whose writes are not atomic (s3rver rewrites the target in place; S3 itself is atomic), so the
 * final key is looked for a few times before the move is said to have failed.
 */
async function movedByAnother(storage: ObjectStorage, key: string): Promise<boolean> {
  for (let attempt = 0; attempt < 5; attempt++) {
    if (await storage.exists(key)) return true;
    await new Promise((resolve) => setTimeout(resolve, 50 * 2 ** attempt));
  }
  return false;
}

/** Removes a staged file whose row will never exist (refused, transaction failed). */
export async function discard(storage: ObjectStorage, file: Pick<StagedFile, 'key'>): Promise<void> {
  await storage.delete(temporaryKeyOf(file.key));
}

export type StoreFileOptions = PutOptions & {
  /**
   * The row is committed but the move failed (storage unreachable for a moment): the file is
   * safe, reads find it under its temporary key and the cleanup job finishes the move. Log it.
   */
  onCommitFailure?: (error: unknown, file: StagedFile) => void;
};

/**
 * Stage → transaction → commit in one call: writes the stream, then in one tenant transaction
 * records the file and runs fn (which inserts the feature's row referencing file.key), then
 * commits the object. If anything before the commit fails, nothing is left.
 */
export async function storeFile<T>(
  db: Database,
  storage: ObjectStorage,
  organizationUuid: string,
  body: Readable,
  options: StoreFileOptions,
  fn: (tx: WriteTx, file: StagedFile) => Promise<T>,
): Promise<T> {
  const file = await stage(storage, organizationUuid, body, options);
  let result: T;
  try {
    result = await withTenant(db, organizationUuid, async (tx) => {
      await recordStoredFile(tx, file);
      return fn(tx, file);
    });
  } catch (error) {
    await discard(storage, file).catch(() => undefined);
    throw error;
  }
  try {
    await commit(storage, file);
  } catch (error) {
    options.onCommitFailure?.(error, file);
  }
  return result;
}

/**
 * Reads a recorded file (its key comes from a row the caller read in its tenant scope). Until
 * the commit is done the object is still under its temporary key: read it there.
 */
export async function openStoredFile(storage: ObjectStorage, key: string, range?: ByteRange): Promise<StoredObject> {
  try {
    return await storage.get(key, range);
  } catch (error) {
    if (!(error instanceof NotFoundError)) throw error;
  }
  try {
    return await storage.get(temporaryKeyOf(key), range);
  } catch (error) {
    if (!(error instanceof NotFoundError)) throw error;
  }
  // Committed between the two reads.
  return storage.get(key, range);
}

/**
 * Deletes a file: in one tenant transaction fn removes the feature's row, then the file's row
 * goes; once committed, the object. Another organization's key is NotFoundError. A crash after
 * the transaction leaves an object no row points to: unreachable, never served.
 */
export async function removeStoredFile(
  db: Database,
  storage: ObjectStorage,
  organizationUuid: string,
  key: string,
  fn: (tx: WriteTx) => Promise<void> = async () => undefined,
): Promise<void> {
  await withTenant(db, organizationUuid, async (tx) => {
    await fn(tx);
    const removed = await tx
      .delete(storedFiles)
      .where(and(eq(storedFiles.key, key), eq(storedFiles.organizationUuid, organizationUuid)))
      .returning({ key: storedFiles.key });
    if (removed.length === 0) throw new NotFoundError('Fichier introuvable');
  });
  await storage.delete(key);
  await storage.delete(temporaryKeyOf(key));
}

export type CleanupOptions = {
  /** Temporary objects without a row older than this are removed (default: a day). */
  olderThanMs?: number;
  now?: Date;
};
export type CleanupReport = { committed: number; removed: number; kept: number };

const LOOKUP_BATCH = 200;

/**
 * The daily job: every temporary object whose row exists is committed (whatever its age: the
 * row is the truth); one without a row is removed once older than olderThanMs (younger, its
 * transaction may still be running). Safe to run from several processes at once. Failures on
 * single objects do not stop the others; they are thrown together at the end.
 */
export async function cleanupTemporaryObjects(storage: ObjectStorage, db: Database, options: CleanupOptions = {}): Promise<CleanupReport> {
  const limit = (options.now ?? new Date()).getTime() - (options.olderThanMs ?? DEFAULT_TEMPORARY_LIFETIME_MS);
  const report: CleanupReport = { committed: 0, removed: 0, kept: 0 };
  const errors: unknown[] = [];
  let batch: { key: string; old: boolean }[] = [];

  const settle = async () => {
    const keys = batch.map((item) => item.key);
    const rows = await readSystem(db, (tx) => tx.select({ key: storedFiles.key }).from(storedFiles).where(inArray(storedFiles.key, keys)));
    const recorded = new Set(rows.map((row) => row.key));
    for (const item of batch) {
      try {
        if (recorded.has(item.key)) {
          // Moved already (by another process's cleanup, or a move cut after its copy): only the
          // temporary copy is left to remove. Fewer concurrent copies of one object, too.
          if (await storage.exists(item.key)) await discard(storage, item);
          else await commit(storage, item);
          report.committed++;
        } else if (item.old) {
          await discard(storage, item);
          report.removed++;
        } else {
          report.kept++;
        }
      } catch (error) {
        errors.push(error);
      }
    }
    batch = [];
  };

  for await (const object of storage.list(TEMPORARY_PREFIX)) {
    const key = TEMPORARY_KEY.exec(object.key)?.[1];
    // Not written by stage: not ours to judge.
    if (key === undefined) continue;
    batch.push({ key, old: object.lastModified.getTime() < limit });
    if (batch.length >= LOOKUP_BATCH) await settle();
  }
  if (batch.length > 0) await settle();
  if (errors.length > 0) throw new AggregateError(errors, `Storage cleanup: ${errors.length} temporary object(s) could not be handled`);
  return report;
}
