import { randomBytes, timingSafeEqual } from 'node:crypto';
import http from 'node:http';
import type { LockOwner } from '../db/data-dir-lock.js';
import { ExplainedError } from '../lib/explained-error.js';
import type { BackupInfo, StoredFilesSummary, TakenBackup } from './backups.js';

/**
 * While a server holds DATA_DIR nothing else may open the embedded database, so `npm run backup`
 * asks that server for the snapshot. The server listens for it on its own loopback-only port (never
 * the public one, which a reverse proxy may forward), and answers only a caller presenting the
 * random token written, with that port, in its lock file (DATA_DIR/flotte.lock, mode 600): whoever
 * can read it could read the database files anyway.
 */

export type BackupAnswer = { file: string; size: number; createdAt: string; kind: BackupInfo['kind']; counts: TakenBackup['counts'] } & StoredFilesSummary;

export type ControlServer = {
  port: number;
  token: string;
  /** Until set, a request is told the server is still starting. */
  setBackupHandler(handler: () => Promise<TakenBackup>): void;
  close(): Promise<void>;
};

function send(response: http.ServerResponse, status: number, body: unknown) {
  response.writeHead(status, { 'content-type': 'application/json; charset=utf-8' }).end(JSON.stringify(body));
}

export async function startControlServer(): Promise<ControlServer> {
  const token = randomBytes(32).toString('base64url');
  const expected = Buffer.from(`Bearer ${token}`);
  let backup: (() => Promise<TakenBackup>) | null = null;

  const server = http.createServer((request, response) => {
    const presented = Buffer.from(request.headers.authorization ?? '');
    if (presented.length !== expected.length || !timingSafeEqual(presented, expected)) {
      return send(response, 401, { message: 'Jeton de contrôle invalide.' });
    }
    if (request.method !== 'POST' || request.url !== '/backup') return send(response, 404, { message: 'Inconnu.' });
    if (!backup) return send(response, 503, { message: 'Le serveur démarre encore : réessayez dans quelques secondes.' });
    backup().then(
      (info) =>
        send(response, 200, {
          file: info.file,
          size: info.size,
          createdAt: info.createdAt.toISOString(),
          kind: info.kind,
          counts: info.counts,
          storage: info.storage,
          storedFiles: info.storedFiles,
          storedBytes: info.storedBytes,
          missingFiles: info.missingFiles,
        } satisfies BackupAnswer),
      (error: unknown) => send(response, 500, { message: `La sauvegarde a échoué : ${(error as Error).message}` }),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen({ host: '127.0.0.1', port: 0 }, resolve);
  });
  // The public server and the database keep the process alive, not this side door.
  server.unref();
  const address = server.address();
  if (!address || typeof address === 'string') throw new Error('control server: no port');
  return {
    port: address.port,
    token,
    setBackupHandler(handler) {
      backup = handler;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        // A command's kept-alive connection must not hold the shutdown.
        server.closeIdleConnections();
      }),
  };
}

/** Asks the server holding DATA_DIR to take a manual backup; waits while it is still starting. */
export async function requestServerBackup(owner: LockOwner): Promise<BackupAnswer> {
  if (!owner.control) {
    throw new ExplainedError(`Le serveur ${owner.pid} qui tient ce dossier ne sait pas prendre de sauvegarde (version plus ancienne ?) : arrêtez-le, puis relancez npm run backup.`);
  }
  const deadline = Date.now() + 120_000;
  for (;;) {
    let response: Response;
    try {
      response = await fetch(`http://127.0.0.1:${owner.control.port}/backup`, {
        method: 'POST',
        headers: { authorization: `Bearer ${owner.control.token}` },
        // A large database takes a while to copy and compress.
        signal: AbortSignal.timeout(30 * 60_000),
      });
    } catch (error) {
      throw new ExplainedError(
        `Le serveur ${owner.pid} tient le dossier mais ne répond pas sur son port de contrôle ${owner.control.port} (${(error as Error).message}). ` +
          `Réessayez ; s'il ne répond toujours pas, arrêtez-le puis relancez npm run backup.`,
      );
    }
    const body = (await response.json().catch(() => ({}))) as Partial<BackupAnswer> & { message?: string };
    if (response.status === 200) return body as BackupAnswer;
    if (response.status === 503 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 1000));
      continue;
    }
    throw new ExplainedError(body.message ?? `Le serveur ${owner.pid} a répondu ${response.status} à la demande de sauvegarde.`);
  }
}
