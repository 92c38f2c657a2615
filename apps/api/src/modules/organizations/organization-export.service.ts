import { once } from 'node:events';
import { Readable } from 'node:stream';
import { cleanFileName } from '@flotte/contract';
import { ZipArchive } from 'archiver';
import type { Database } from '../../db/client.js';
import { readSystem, readTenant } from '../../db/scope.js';
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
 * `fichiers/<document uuid> <name>`. The rows are read in one snapshot before the first byte is
 * sent; the files are then read from the storage one at a time as the ZIP is written.
 */
export async function organizationExport(deps: { db: Database; storage: ObjectStorage }, ctx: AuthContext, organizationUuid: string, exportedAt = new Date()): Promise<ExportedFile> {
  const { organization, members } = await readSystem(deps.db, async (tx) => {
    await assertCanManageMembers(tx, ctx, organizationUuid, 'Organisation introuvable', EXPORT_FORBIDDEN_MESSAGE);
    return { organization: await repo.organizationRow(tx, organizationUuid), members: await repo.members(tx, organizationUuid) };
  });
  const { tables, files } = await readTenant(deps.db, organizationUuid, async (tx) => {
    const tables: [string, Record<string, unknown>[]][] = [];
    for (const table of repo.EXPORTED_TABLES) tables.push([table, await repo.tableRows(tx, table, organizationUuid)]);
    return { tables, files: await repo.documentFiles(tx, organizationUuid) };
  });

  const zip = new ZipArchive({ zlib: { level: 6 } });
  const entry = (content: Readable | string, name: string) => {
    const done = once(zip, 'entry');
    zip.append(typeof content === 'string' ? Readable.from([content]) : content, { name });
    return done;
  };
  const json = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`;
  const write = async () => {
    await entry(json({ exportedAt: exportedAt.toISOString(), organization, members }), 'organisation.json');
    for (const [table, rows] of tables) await entry(json(rows), `${table}.json`);
    for (const file of files) {
      // One file open at a time: the next is opened once the previous one is in the ZIP.
      const object = await openStoredFile(deps.storage, file.file_key);
      await entry(object.body as Readable, `${EXPORT_FILES_FOLDER}/${cleanFileName(`${file.uuid} ${file.name}`)}`);
    }
    await zip.finalize();
  };
  write().catch((error: unknown) => zip.destroy(error instanceof Error ? error : new Error(String(error))));
  const day = exportedAt.toISOString().slice(0, 10);
  return { fileName: cleanFileName(`Données-${organization?.title ?? organizationUuid}-${day}.zip`), contentType: 'application/zip', stream: zip as unknown as Readable };
}
