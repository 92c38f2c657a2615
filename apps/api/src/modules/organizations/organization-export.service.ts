import { once } from 'node:events';
import { Readable } from 'node:stream';
import { cleanFileName } from '@flotte/contract';
import { ZipArchive } from 'archiver';
import type { Database } from '../../db/client.js';
import { snapshotBatches, type SnapshotBatch } from '../../db/list-export.js';
import { readSystem } from '../../db/scope.js';
import type { AuthContext } from '../../lib/auth-context.js';
import type { ExportedFile } from '../../lib/register-export.js';
import { openStoredFile } from '../../platform/storage/files.js';
import type { ObjectStorage } from '../../platform/storage/storage.js';
import * as repo from './organization-export.repository.js';
import { assertCanManageMembers } from './organizations.service.js';

export const EXPORT_FORBIDDEN_MESSAGE = 'Seul un administrateur de l’organisation peut exporter ses données';
export const EXPORT_FILES_FOLDER = 'fichiers';

/**
 * An organization's data export (issue 20, GDPR: the right of access and to portability), for
 * its ADMIN, a SUPERADMIN of its environment or ROOT (another organization: 404). One ZIP:
 * `organisation.json` (the organization, its members, the date), one `<table>.json` per table of
 * organization-export.repository.ts, and every stored file of its documents under
 * `fichiers/<document uuid> <name>`. The rows are read in one snapshot, batch after batch as the
 * ZIP is written (db/list-export.ts `snapshotBatches`): the memory holds one batch, not the
 * organization; the files are then read from the storage one at a time.
 */
export async function organizationExport(
  deps: { db: Database; storage: ObjectStorage },
  ctx: AuthContext,
  organizationUuid: string,
  exportedAt = new Date(),
  batchSize?: number,
): Promise<ExportedFile> {
  const { organization, members } = await readSystem(deps.db, async (tx) => {
    await assertCanManageMembers(tx, ctx, organizationUuid, 'Organisation introuvable', EXPORT_FORBIDDEN_MESSAGE);
    return { organization: await repo.organizationRow(tx, organizationUuid), members: await repo.members(tx, organizationUuid) };
  });
  // Every table, then the documents' files, in one snapshot. Its first batch is read before
  // anything is sent: a refusal or a failure there (no turn, the database away) is answered as the
  // API's usual JSON error; later ones cut the download.
  const batches = snapshotBatches(
    deps.db,
    organizationUuid,
    () => [...repo.EXPORTED_TABLES.map((table) => repo.tableStatement(table, organizationUuid)), repo.documentFilesStatement(organizationUuid)],
    batchSize,
  );
  let pending: IteratorResult<SnapshotBatch, void> | null = await batches.next();
  const nextBatch = async (index: number): Promise<SnapshotBatch> => {
    const { value, done } = pending ?? (await batches.next());
    pending = null;
    if (done || value.index !== index) throw new Error(`organization export: the snapshot's batches are out of step (${index} expected)`);
    return value;
  };
  /** The rows of the snapshot's statement at `index`, batch after batch. */
  async function* rowsOf(index: number) {
    for (let last = false; !last; ) {
      const batch = await nextBatch(index);
      last = batch.last;
      yield* batch.rows;
    }
  }
  /** A table as `JSON.stringify(rows, null, 2)` writes it, one batch at a time. */
  async function* tableJson(index: number) {
    let first = true;
    for await (const row of rowsOf(index)) {
      yield `${first ? '[\n' : ',\n'}  ${JSON.stringify(repo.exportedRow(row), null, 2).replaceAll('\n', '\n  ')}`;
      first = false;
    }
    yield first ? '[]\n' : '\n]\n';
  }

  const zip = new ZipArchive({ zlib: { level: 6 } });
  // The download closed (finished, or the client went away): an entry still awaited fails, and
  // the writing's `finally` ends the snapshot, which would otherwise hold its connection.
  const closed = new AbortController();
  zip.once('close', () => closed.abort());
  const entry = (content: Readable | string, name: string) => {
    const done = once(zip, 'entry', { signal: closed.signal });
    zip.append(typeof content === 'string' ? Readable.from([content]) : content, { name });
    return done;
  };
  const write = async () => {
    try {
      await entry(`${JSON.stringify({ exportedAt: exportedAt.toISOString(), organization, members }, null, 2)}\n`, 'organisation.json');
      for (const [index, table] of repo.EXPORTED_TABLES.entries()) await entry(Readable.from(tableJson(index)), `${table}.json`);
      const files: { uuid: string; name: string; file_key: string }[] = [];
      for await (const row of rowsOf(repo.EXPORTED_TABLES.length)) files.push(row as (typeof files)[number]);
      // The snapshot ends before the files are read from the storage.
      await batches.return(undefined);
      for (const file of files) {
        // One file open at a time: the next is opened once the previous one is in the ZIP.
        const object = await openStoredFile(deps.storage, file.file_key);
        await entry(object.body as Readable, `${EXPORT_FILES_FOLDER}/${cleanFileName(`${file.uuid} ${file.name}`)}`);
      }
      await zip.finalize();
    } finally {
      await batches.return(undefined);
    }
  };
  write().catch((error: unknown) => zip.destroy(error instanceof Error ? error : new Error(String(error))));
  const day = exportedAt.toISOString().slice(0, 10);
  return { fileName: cleanFileName(`Données-${organization?.title ?? organizationUuid}-${day}.zip`), contentType: 'application/zip', stream: zip as unknown as Readable };
}
