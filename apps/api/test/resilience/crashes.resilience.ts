import { existsSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openPglite } from '../../src/db/client.js';
import { cleanupTemporaryObjects } from '../../src/platform/storage/files.js';
import { LocalDiskStorage } from '../../src/platform/storage/local-disk-storage.js';
import { multipartFile, multipartFiles } from '../multipart.js';
import { api, cleanUp, driverUuids, filesUnder, login, openFolder, type RunningServer, seededDataDir, startServer, waitUntil } from '../process/harness.js';

/**
 * Issue 20, point 11: kill -9 of the built server (embedded database) during an import, an upload
 * and a job, then the same request again with its Idempotency-Key (decision 050). After each
 * restart: the whole import or none of it, no import left « en cours », no orphan file on disk or
 * in the database once the storage's cleanup has run, the job run again with its effect once, and
 * a retry that creates nothing twice. The kill -9 of plain writes and of a job worker are
 * test/process/durability.process.ts and jobs.process.ts; this file adds what they lack.
 */

afterAll(cleanUp);

const DAY_MS = 86_400_000;
const tried: { scenario: string; moment: string; held: string; at: number }[] = [];
const t0 = Date.now();
const note = (row: { scenario: string; moment: string; held: string }) => tried.push({ ...row, at: Date.now() - t0 });

/** A POST whose body is sent in chunks the test times; resolves with the answer, if the server gave one. */
function slowPost(server: RunningServer, route: string, token: string, headers: Record<string, string>, chunks: Buffer[], pauseMs: number) {
  const url = new URL(`${server.url}/api${route}`);
  let sent = 0;
  const answer = new Promise<{ status: number; body: string } | null>((resolve) => {
    const request = http.request(url, { method: 'POST', headers: { authorization: `Bearer ${token}`, ...headers, 'content-length': String(chunks.reduce((n, c) => n + c.length, 0)) } }, (response) => {
      let body = '';
      response.on('data', (d) => (body += String(d)));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
      response.on('error', () => resolve(null));
    });
    request.on('error', () => resolve(null));
    void (async () => {
      for (const chunk of chunks) {
        if (request.destroyed) return;
        request.write(chunk);
        sent += chunk.length;
        if (pauseMs > 0) await new Promise((r) => setTimeout(r, pauseMs));
      }
      request.end();
    })();
  });
  return { answer, sent: () => sent };
}

/** Splits a body into chunks of `size` bytes. */
const chunked = (body: Buffer, size: number) => Array.from({ length: Math.ceil(body.length / size) }, (_, i) => body.subarray(i * size, (i + 1) * size));

async function kill(server: RunningServer) {
  server.child.kill('SIGKILL');
  expect(await server.exited).toBe('SIGKILL');
}

/** Files under DATA_DIR/media: temporary ones (tmp/) and committed keys (`<org>/<uuid>`). */
function mediaFiles(dataDir: string): { temporary: string[]; committed: string[] } {
  const root = path.join(dataDir, 'media');
  const found = existsSync(root) ? Object.keys(filesUnder(root)) : [];
  return { temporary: found.filter((key) => key.startsWith('tmp/')), committed: found.filter((key) => !key.startsWith('tmp/')) };
}

/**
 * With the server stopped: the storage's cleanup as its daily job runs it, two days later (every
 * temporary object is then old enough to judge), then files and rows compared.
 */
async function sweepAndCompare(dataDir: string) {
  const handle = await openPglite({ dataDir: path.join(dataDir, 'pglite'), migrate: false });
  try {
    const report = await cleanupTemporaryObjects(new LocalDiskStorage(path.join(dataDir, 'media')), handle.db, { now: new Date(Date.now() + 2 * DAY_MS) });
    return report;
  } finally {
    await handle.close();
  }
}

async function storedKeys(dataDir: string): Promise<{ keys: Set<string>; documents: number; imports: number }> {
  const db = await openFolder(dataDir);
  try {
    const keys = new Set((await db.query<{ key: string }>('SELECT key FROM stored_files')).rows.map((row) => row.key));
    const documents = (await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM documents WHERE kind = 'file'`)).rows[0]!.n;
    const imports = (await db.query<{ n: number }>('SELECT count(*)::int AS n FROM imports')).rows[0]!.n;
    return { keys, documents, imports };
  } finally {
    await db.close();
  }
}

async function noOrphans(dataDir: string, scenario: string) {
  const report = await sweepAndCompare(dataDir);
  const files = mediaFiles(dataDir);
  const { keys } = await storedKeys(dataDir);
  expect(files.temporary, 'objets temporaires restés après le nettoyage').toEqual([]);
  expect(files.committed.filter((key) => !keys.has(key)), 'fichiers sans ligne').toEqual([]);
  expect([...keys].filter((key) => !files.committed.includes(key)), 'lignes sans fichier').toEqual([]);
  note({ scenario, moment: 'nettoyage du stockage (J+2)', held: `${report.removed} temporaire(s) supprimé(s), ${report.committed} terminé(s), 0 orphelin` });
}

const pdf = (bytes: number) => Buffer.concat([Buffer.from('%PDF-1.4\n1 0 obj\n<< /Type /Catalog >>\nendobj\n', 'latin1'), Buffer.alloc(bytes, 0x20), Buffer.from('\ntrailer\n<< /Root 1 0 R >>\n%%EOF\n', 'latin1')]);

const driversCsv = (tag: string, rows: number) =>
  Buffer.from(`Nom;Prénom;Téléphone;E-mail\n${Array.from({ length: rows }, (_, i) => `${tag}${i};Crash;06 ${String(10 + (i % 90))} ${String(10 + ((i >> 3) % 90))} 00 00;${tag.toLowerCase()}-${i}@crash.fr`).join('\n')}\n`);

/** Drivers whose name starts with prefix (every page: a filtered total is capped at 1 000). */
async function driversNamed(server: RunningServer, token: string, prefix: string): Promise<number> {
  return (await driverUuids(server.url, token, prefix)).size;
}

async function previewImport(server: RunningServer, token: string, key: string, csv: Buffer) {
  const form = multipartFile('conducteurs.csv', csv);
  const { answer } = slowPost(server, '/import/driver/preview', token, { ...form.headers, 'idempotency-key': key }, [form.payload], 0);
  const response = await answer;
  expect(response?.status, response?.body).toBe(200);
  return { ...(JSON.parse(response!.body) as { importId: string; suggestedMapping: Record<string, number | null> }), raw: response!.body };
}

describe('kill -9, then the same request again (embedded database)', () => {
  it('during an upload, and during an import’s preview, commit and background job: all or nothing, no orphan, the retry once', async () => {
    const started = Date.now();
    const dataDir = seededDataDir();
    let server = await startServer(dataDir);
    let token = await login(server.url);
    const vehicle = (await api<{ data: { uuid: string }[] }>(server.url, token, 'GET', '/vehicule?limit=1')).body.data[0]!.uuid;
    const before = await api<{ data: unknown[] }>(server.url, token, 'GET', `/vehicule/${vehicle}/documents`);

    // 1. An upload killed with its file half sent: the file is staged in tmp/, no row.
    const big = multipartFiles([{ name: 'crash-milieu.pdf', content: pdf(6 * 1024 * 1024) }]);
    const halfway = slowPost(server, `/vehicule/${vehicle}/documents`, token, { ...big.headers, 'idempotency-key': 'upload-milieu' }, chunked(big.payload, 256 * 1024), 40);
    await waitUntil(() => halfway.sent() >= 3 * 1024 * 1024, 60_000);
    await kill(server);
    expect(await halfway.answer).toBeNull();
    note({ scenario: 'envoi de fichier', moment: 'kill -9 à mi-corps (3 Mo sur 6)', held: 'aucune réponse' });

    // 2. An upload killed just as its last byte arrives: before, during or after its commit.
    server = await startServer(dataDir);
    token = await login(server.url);
    const small = multipartFiles([{ name: 'crash-fin.pdf', content: pdf(512 * 1024) }]);
    const atEnd = slowPost(server, `/vehicule/${vehicle}/documents`, token, { ...small.headers, 'idempotency-key': 'upload-fin' }, chunked(small.payload, 64 * 1024), 5);
    await waitUntil(() => atEnd.sent() === small.payload.length, 30_000);
    await new Promise((r) => setTimeout(r, 15));
    await kill(server);
    const cut = await atEnd.answer;
    note({ scenario: 'envoi de fichier', moment: 'kill -9 au dernier octet (+15 ms)', held: cut ? `réponse ${cut.status} avant l’arrêt` : 'aucune réponse' });

    // 3. An import's preview killed with its file half sent.
    server = await startServer(dataDir);
    token = await login(server.url);
    const bigCsv = driversCsv('Apercu', 20_000);
    const previewForm = multipartFile('conducteurs.csv', bigCsv);
    const cutPreview = slowPost(server, '/import/driver/preview', token, { ...previewForm.headers, 'idempotency-key': 'apercu-coupe' }, chunked(previewForm.payload, 128 * 1024), 30);
    await waitUntil(() => cutPreview.sent() >= previewForm.payload.length / 2, 60_000);
    await kill(server);
    expect(await cutPreview.answer).toBeNull();
    note({ scenario: 'import : aperçu', moment: `kill -9 à mi-fichier (${Math.round(previewForm.payload.length / 2 / 1024)} Ko)`, held: 'aucune réponse' });

    // After the restart: the same requests with the same keys.
    server = await startServer(dataDir);
    expect(server.output()).toMatch(/Idempotency-Key : demandes interrompues par un arrêt brutal, clés libérées/);
    token = await login(server.url);
    for (const [key, form] of [
      ['upload-milieu', big],
      ['upload-fin', small],
    ] as const) {
      const retry = slowPost(server, `/vehicule/${vehicle}/documents`, token, { ...form.headers, 'idempotency-key': key }, chunked(form.payload, 1024 * 1024), 0);
      const answer = await retry.answer;
      expect(answer?.status, answer?.body).toBe(201);
    }
    const after = await api<{ data: { media: { name: string } | null }[] }>(server.url, token, 'GET', `/vehicule/${vehicle}/documents`);
    const names = after.body.data.map((document) => document.media?.name ?? '');
    expect(names.filter((name) => name.startsWith('crash-milieu'))).toEqual(['crash-milieu.pdf']);
    expect(names.filter((name) => name.startsWith('crash-fin'))).toEqual(['crash-fin.pdf']);
    expect(after.body.data.length).toBe(before.body.data.length + 2);
    note({ scenario: 'envoi de fichier', moment: 'même Idempotency-Key après redémarrage', held: 'un document de chaque, jamais deux' });

    // The import's preview again: one import, its retry replayed.
    const first = await previewImport(server, token, 'apercu-coupe', driversCsv('Apercu', 20_000));
    const replay = await previewImport(server, token, 'apercu-coupe', driversCsv('Apercu', 20_000));
    expect(replay.raw).toBe(first.raw);
    note({ scenario: 'import : aperçu', moment: 'même Idempotency-Key après redémarrage, deux fois', held: 'un seul import, réponse rejouée' });

    // 4. A background commit (more than 5 000 rows) killed while its job applies the rows.
    const rows = 12_000;
    const queued = await previewImport(server, token, 'job-apercu', driversCsv('Tache', rows));
    const commitBody = { mapping: queued.suggestedMapping };
    const commit = () => fetch(`${server.url}/api/import/${queued.importId}/commit`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'idempotency-key': 'job-commit' }, body: JSON.stringify(commitBody) });
    const accepted = await commit();
    expect(accepted.status).toBe(202);
    const acceptedBody = await accepted.text();
    // The embedded database runs one transaction at a time: while the job applies its rows, a
    // status request waits. One waiting over 150 ms says the job is inside its transaction.
    let busySince: number | null = null;
    let polling = true;
    void (async () => {
      while (polling) {
        const sent = Date.now();
        busySince = sent;
        await api(server.url, token, 'GET', `/import/${queued.importId}`).catch(() => undefined);
        if (busySince === sent) busySince = null;
        await new Promise((r) => setTimeout(r, 10));
      }
    })();
    await waitUntil(() => busySince !== null && Date.now() - busySince > 150, 60_000);
    polling = false;
    const seenPercent = 'base occupée';
    await kill(server);
    const db = await openFolder(dataDir);
    const afterKill = (await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM drivers WHERE last_name LIKE 'Tache%'`)).rows[0]!.n;
    const statusAfterKill = (await db.query<{ status: string }>('SELECT status FROM imports WHERE uuid = $1', [queued.importId])).rows[0]!.status;
    await db.close();
    // All or nothing: the job's one transaction committed, or left no row and the import queued.
    expect([afterKill, statusAfterKill]).toEqual(afterKill === 0 ? [0, 'queued'] : [rows, 'committed']);
    note({ scenario: 'import : tâche de fond (12 000 lignes)', moment: `kill -9 pendant l’application (${seenPercent})`, held: `${afterKill} ligne(s) écrite(s), import « ${statusAfterKill} » (jamais « en cours »)` });

    server = await startServer(dataDir);
    token = await login(server.url);
    let status = '';
    for (const deadline = Date.now() + 90_000; Date.now() < deadline && status !== 'committed' && status !== 'failed'; ) {
      status = (await api<{ status: string }>(server.url, token, 'GET', `/import/${queued.importId}`)).body.status;
      if (status !== 'committed') await new Promise((r) => setTimeout(r, 200));
    }
    expect(status).toBe('committed');
    expect(await driversNamed(server, token, 'Tache')).toBe(rows);
    const again = await commit();
    expect([again.status, again.headers.get('idempotent-replayed'), await again.text()]).toEqual([202, 'true', acceptedBody]);
    expect(await driversNamed(server, token, 'Tache')).toBe(rows);
    note({ scenario: 'import : tâche de fond (12 000 lignes)', moment: 'redémarrage, puis même Idempotency-Key', held: `tâche reprise, ${rows} lignes une fois, réponse rejouée` });

    // 5. A commit in the request (4 000 rows, one transaction) killed while it runs.
    const inline = await previewImport(server, token, 'direct-apercu', driversCsv('Direct', 4_000));
    const inlineCommit = () =>
      fetch(`${server.url}/api/import/${inline.importId}/commit`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'idempotency-key': 'direct-commit' }, body: JSON.stringify({ mapping: inline.suggestedMapping }) }).then(
        async (response) => ({ status: response.status, body: await response.text() }),
        () => null,
      );
    const cutCommit = inlineCommit();
    await new Promise((r) => setTimeout(r, 150));
    await kill(server);
    const cutAnswer = await cutCommit;
    const db2 = await openFolder(dataDir);
    const inlineRows = (await db2.query<{ n: number }>(`SELECT count(*)::int AS n FROM drivers WHERE last_name LIKE 'Direct%'`)).rows[0]!.n;
    const inlineStatus = (await db2.query<{ status: string }>('SELECT status FROM imports WHERE uuid = $1', [inline.importId])).rows[0]!.status;
    await db2.close();
    expect([0, 4_000]).toContain(inlineRows);
    expect(inlineStatus).toBe(inlineRows === 0 ? 'previewed' : 'committed');
    note({ scenario: 'import : validation directe (4 000 lignes)', moment: 'kill -9 150 ms après l’envoi', held: `${cutAnswer ? `réponse ${cutAnswer.status}, ` : ''}${inlineRows} ligne(s), import « ${inlineStatus} »` });

    server = await startServer(dataDir);
    token = await login(server.url);
    const retried = await inlineCommit();
    // Applied by the retry, or already applied and answered then (200), or applied with its answer lost (409).
    expect([200, 409]).toContain(retried?.status);
    expect(await driversNamed(server, token, 'Direct')).toBe(4_000);
    const replayed = await inlineCommit();
    expect(await driversNamed(server, token, 'Direct')).toBe(4_000);
    note({ scenario: 'import : validation directe (4 000 lignes)', moment: 'même Idempotency-Key après redémarrage, deux fois', held: `réponses ${retried?.status} puis ${replayed?.status}, 4 000 lignes une fois` });
    await server.stop();

    // No orphan: what the killed uploads and the killed preview left in tmp/ goes, every row has its file.
    await noOrphans(dataDir, 'stockage');
    const elapsed = Date.now() - started;
    process.stdout.write(`\nkill -9 et Idempotency-Key (base embarquée), ${Math.round(elapsed / 1000)} s :\n`);
    for (const row of tried) process.stdout.write(`  ${String(Math.round(row.at / 1000)).padStart(4)} s  ${row.scenario.padEnd(44)} ${row.moment.padEnd(52)} → ${row.held}\n`);
  });
});
