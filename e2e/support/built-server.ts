import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '../..');

export type BuiltServer = {
  baseUrl: string;
  /** Its DATA_DIR: a fresh temporary folder, removed by stop(). */
  dataDir: string;
  /** Everything it wrote on stdout and stderr so far. */
  output(): string;
  stop(): Promise<void>;
};

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

/**
 * The built product as `npm start` runs it (node apps/api/dist/server.js) on a free port, with a
 * fresh embedded database and the demo seed — for the e2e suite and the web benchmark. Answers
 * once /api/health does; a server that stops or stays silent fails with what it printed.
 */
export async function startBuiltServer(options: {
  env?: (baseUrl: string, dataDir: string) => Record<string, string>;
  dataDirPrefix: string;
  timeoutMs: number;
}): Promise<BuiltServer> {
  const server = path.join(root, 'apps/api/dist/server.js');
  if (!existsSync(server) || !existsSync(path.join(root, 'apps/web/dist/index.html'))) {
    throw new Error('Construisez d’abord le produit : npm run build');
  }
  const dataDir = mkdtempSync(path.join(tmpdir(), options.dataDirPrefix));
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const output: string[] = [];
  const child: ChildProcess = spawn(process.execPath, [server], {
    cwd: root,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      DATABASE_URL: '',
      SEED_DEMO: 'true',
      LOG_LEVEL: 'warn',
      ...options.env?.(baseUrl, dataDir),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (d) => output.push(String(d)));
  child.stderr?.on('data', (d) => output.push(String(d)));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      await new Promise((r) => child.once('exit', r));
    }
    rmSync(dataDir, { recursive: true, force: true });
  };
  const deadline = Date.now() + options.timeoutMs;
  for (;;) {
    if (child.exitCode !== null) {
      await stop();
      throw new Error(`le serveur s'est arrêté (code ${child.exitCode})\n${output.join('')}`);
    }
    try {
      if ((await fetch(`${baseUrl}/api/health`)).ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      await stop();
      throw new Error(`le serveur ne répond pas sur ${baseUrl}\n${output.join('')}`);
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  return { baseUrl, dataDir, output: () => output.join(''), stop };
}
