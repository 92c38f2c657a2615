import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { SMTPServer } from 'smtp-server';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    baseUrl: string;
    /** Where the test SMTP server writes each message it receives (support/mailbox.ts reads them). */
    mailDir: string;
  }
}

/**
 * A real SMTP server the product sends its e-mails to (SMTP_HOST), as a mail provider would
 * receive them: each message is written whole to `dir` as `<n>.eml`, atomically.
 */
async function startSmtpServer(dir: string): Promise<{ port: number; close: () => Promise<void> }> {
  let count = 0;
  const server = new SMTPServer({
    disabledCommands: ['STARTTLS', 'AUTH'],
    authOptional: true,
    logger: false,
    onData(stream, _session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const name = `${String(++count).padStart(5, '0')}.eml`;
        writeFileSync(path.join(dir, `.${name}`), Buffer.concat(chunks));
        renameSync(path.join(dir, `.${name}`), path.join(dir, name));
        callback();
      });
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const address = server.server.address();
  if (typeof address !== 'object' || !address) throw new Error('serveur SMTP sans port');
  return { port: address.port, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

const root = path.resolve(import.meta.dirname, '../..');

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

async function waitFor(url: string, child: ChildProcess, timeoutMs: number) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`le serveur s'est arrêté (code ${child.exitCode})`);
    try {
      const response = await fetch(url);
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`le serveur ne répond pas sur ${url}`);
}

/**
 * Starts the built product exactly as `npm start` does (node apps/api/dist/server.js) on a free
 * port, with a fresh embedded database and the demo seed: the newcomer's path.
 */
export default async function setup(project: TestProject) {
  const server = path.join(root, 'apps/api/dist/server.js');
  if (!existsSync(server) || !existsSync(path.join(root, 'apps/web/dist/index.html'))) {
    throw new Error('Construisez d’abord le produit : npm run build');
  }
  const dataDir = mkdtempSync(path.join(tmpdir(), 'flotte-e2e-'));
  const mailDir = path.join(dataDir, 'received-mail');
  mkdirSync(mailDir);
  const smtp = await startSmtpServer(mailDir);
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const output: string[] = [];
  const child = spawn(process.execPath, [server], {
    cwd: root,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      DATABASE_URL: '',
      SEED_DEMO: 'true',
      LOG_LEVEL: 'warn',
      // E-mails leave by SMTP, as in production, to the server above; their links point here.
      SMTP_HOST: '127.0.0.1',
      SMTP_PORT: String(smtp.port),
      PUBLIC_URL: baseUrl,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (d) => output.push(String(d)));
  child.stderr?.on('data', (d) => output.push(String(d)));
  try {
    await waitFor(`${baseUrl}/api/health`, child, 90_000);
  } catch (error) {
    child.kill('SIGKILL');
    await smtp.close();
    throw new Error(`${(error as Error).message}\n${output.join('')}`, { cause: error });
  }
  project.provide('baseUrl', baseUrl);
  project.provide('mailDir', mailDir);
  return async () => {
    child.kill('SIGTERM');
    await new Promise((r) => (child.exitCode !== null ? r(null) : child.once('exit', r)));
    // E2E_SERVER_LOG=<file>: the server's warnings and errors of the run, to read after it.
    if (process.env.E2E_SERVER_LOG) writeFileSync(process.env.E2E_SERVER_LOG, output.join(''));
    await smtp.close();
    rmSync(dataDir, { recursive: true, force: true });
  };
}
