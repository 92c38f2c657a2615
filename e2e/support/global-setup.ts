import { mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { SMTPServer } from 'smtp-server';
import type { TestProject } from 'vitest/node';
import { type BuiltServer, startBuiltServer } from './built-server.js';

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

/**
 * Starts the built product exactly as `npm start` does (node apps/api/dist/server.js) on a free
 * port, with a fresh embedded database and the demo seed: the newcomer's path.
 */
export default async function setup(project: TestProject) {
  const mailDir = mkdtempSync(path.join(tmpdir(), 'flotte-e2e-mail-'));
  const smtp = await startSmtpServer(mailDir);
  let server: BuiltServer;
  try {
    server = await startBuiltServer({
      dataDirPrefix: 'flotte-e2e-',
      timeoutMs: 90_000,
      // E-mails leave by SMTP, as in production, to the server above; their links point here.
      env: (baseUrl) => ({ SMTP_HOST: '127.0.0.1', SMTP_PORT: String(smtp.port), PUBLIC_URL: baseUrl }),
    });
  } catch (error) {
    await smtp.close();
    rmSync(mailDir, { recursive: true, force: true });
    throw error;
  }
  project.provide('baseUrl', server.baseUrl);
  project.provide('mailDir', mailDir);
  return async () => {
    const output = server.output();
    await server.stop();
    // E2E_SERVER_LOG=<file>: the server's warnings and errors of the run, to read after it.
    if (process.env.E2E_SERVER_LOG) writeFileSync(process.env.E2E_SERVER_LOG, output);
    await smtp.close();
    rmSync(mailDir, { recursive: true, force: true });
  };
}
