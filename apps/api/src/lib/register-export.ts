import type { Readable } from 'node:stream';
import { todayIso } from '@flotte/contract';
import type { FastifyReply } from 'fastify';
import type { Database } from '../db/client.js';
import { listRows } from '../db/list-export.js';
import type { List, ListQuery } from '../db/list-kit.js';
import { CONTENT_TYPES, contentDisposition, csvStream, type ExportFormat, exportFileName, xlsxStream } from './spreadsheet-export.js';

export type ExportedFile = { fileName: string; contentType: string; stream: Readable };

/** Sends a file the API made as a download: its type, its name (Content-Disposition), never cached. */
export function sendExportedFile(reply: FastifyReply, file: ExportedFile) {
  return (
    reply
      .header('content-type', file.contentType)
      .header('content-disposition', contentDisposition(file.fileName))
      .header('cache-control', 'no-store')
      // The route's 200 schema documents the bytes; Fastify sends a stream as it is, without serializing it.
      .send(file.stream)
  );
}

/**
 * A register's export of its list's view (the list's own query), as the register declares it
 * (`exports` in defineList). The first batch is read before anything is sent: a refusal or a
 * failure there is answered as the API's usual JSON error; later ones cut the download.
 */
export async function exportList<Q extends ListQuery, Row>(
  db: Database,
  organizationUuid: string,
  list: List<Q, Row>,
  query: Q,
  format: ExportFormat,
  today: string = todayIso(),
): Promise<ExportedFile> {
  const declaration = list.exports;
  if (!declaration) throw new Error(`list ${list.name}: no export declared`);
  const rows = listRows(db, organizationUuid, list, query);
  const first = await rows.next();
  async function* batches(): AsyncGenerator<Row[]> {
    if (first.done) return;
    yield first.value;
    yield* rows;
  }
  const stream = format === 'csv' ? csvStream(declaration.columns, batches()) : xlsxStream(declaration.columns, batches(), declaration.sheet);
  return { fileName: exportFileName(declaration.file, today, format), contentType: CONTENT_TYPES[format], stream };
}
