import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cleanUp, createDriver, driverUuids, login, seededDataDir, startServer, startWriters, waitUntil } from './harness.js';

afterAll(cleanUp);

describe('an acknowledged write survives a crash', () => {
  it('kill -9 during 8 parallel writers, three rounds: the dead server’s lock is taken over, every acknowledged write is there', async () => {
    const dataDir = seededDataDir();
    const acknowledged: string[] = [];
    let killed: number | null = null;
    for (let round = 1; round <= 3; round++) {
      const started = Date.now();
      const server = await startServer(dataDir);
      const startMs = Date.now() - started;
      if (killed !== null) {
        expect(server.output()).toMatch(new RegExp(`Verrou abandonné repris : un serveur FlotteAssur \\(processus ${killed}\\b`));
      }
      expect(JSON.parse(readFileSync(path.join(dataDir, 'flotte.lock'), 'utf8')).pid).toBe(server.pid);
      const token = await login(server.url);
      const writers = startWriters(8, async (writer, n) => [await createDriver(server.url, token, `Crash${round}-${writer}-${n}`)]);
      await waitUntil(() => writers.acknowledged.length >= 40);
      // Writers are still sending: some requests are cut, unacknowledged.
      server.child.kill('SIGKILL');
      expect(await server.exited).toBe('SIGKILL');
      killed = server.pid;
      await writers.stop();
      acknowledged.push(...writers.acknowledged);
      process.stdout.write(`tour ${round} : serveur prêt en ${startMs} ms, ${writers.acknowledged.length} écritures acquittées, ${writers.failures} coupées\n`);
    }
    const server = await startServer(dataDir);
    try {
      const found = await driverUuids(server.url, await login(server.url), 'Crash');
      expect(acknowledged.filter((uuid) => !found.has(uuid))).toEqual([]);
      expect(acknowledged.length).toBeGreaterThanOrEqual(120);
    } finally {
      await server.stop();
    }
    // An up-to-date database gets no pre-migration backup.
    const backups = path.join(dataDir, 'backups');
    expect(existsSync(backups) ? readdirSync(backups).filter((name) => name.includes('avant-migration')) : []).toEqual([]);
  });
});
