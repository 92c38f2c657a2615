import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import {
  backupFileFrom,
  cleanUp,
  column,
  createDriver,
  fingerprint,
  freePort,
  login,
  openFolder,
  ROOT,
  runCommand,
  scratch,
  seededDataDir,
  spawnServer,
  startServer,
} from './harness.js';

afterAll(cleanUp);

const lockFile = (dataDir: string) => path.join(dataDir, 'flotte.lock');

/** The pid of a process that has already exited. */
function deadPid(): number {
  return spawnSync(process.execPath, ['-e', '']).pid!;
}

function staleLock(pid: number): string {
  return JSON.stringify({ pid, hostname: os.hostname(), bootId: null, processStart: null, role: 'server', startedAt: '2026-01-01T00:00:00.000Z', nonce: String(pid) });
}

describe('one process per embedded data folder', () => {
  it('refuses a second server on the same folder (exit 1, folder untouched); the first keeps serving and loses nothing', async () => {
    const dataDir = seededDataDir();
    // No job queue worker: its timers write on their own, and « untouched » must measure the second server and the commands alone.
    const first = await startServer(dataDir, { JOBS_WORKER: 'false' });
    let before: string;
    let after: string;
    try {
      const token = await login(first.url);
      before = await createDriver(first.url, token, 'Verrou-avant');
      const lock = readFileSync(lockFile(dataDir), 'utf8');
      const files = fingerprint(path.join(dataDir, 'pglite'));

      const second = spawnServer(dataDir, await freePort());
      expect(await second.exited).toBe(1);
      expect(second.output()).toContain(`Le dossier de données ${dataDir} est déjà utilisé par un serveur FlotteAssur (processus ${first.pid}`);
      expect(second.output()).toContain('DATA_DIR=./data-2 PORT=3001 npm start');
      expect(fingerprint(path.join(dataDir, 'pglite'))).toEqual(files);
      expect(readFileSync(lockFile(dataDir), 'utf8')).toBe(lock);

      // `npm start` says it before building.
      const check = spawnSync(process.execPath, ['scripts/check-data-dir.mjs'], { cwd: ROOT, env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '' }, encoding: 'utf8' });
      expect(check.status).toBe(1);
      expect(check.stderr).toContain(`processus ${first.pid}`);

      // A backup goes through the running server; a restore is refused while it runs.
      const backup = await runCommand('backup', [], { DATA_DIR: dataDir });
      const backupFile = backupFileFrom(backup);
      expect(backup.stdout).toContain(`Prise par le serveur en cours (processus ${first.pid})`);
      const filesAfterBackup = fingerprint(path.join(dataDir, 'pglite'));
      const restore = await runCommand('restore', [backupFile], { DATA_DIR: dataDir });
      expect(restore.code).toBe(1);
      expect(restore.stderr).toContain(`processus ${first.pid}`);
      expect(fingerprint(path.join(dataDir, 'pglite'))).toEqual(filesAfterBackup);

      after = await createDriver(first.url, token, 'Verrou-apres');
      expect(first.child.exitCode).toBeNull();
    } finally {
      // Ctrl+C: an orderly stop, which releases the folder.
      expect(await first.stop('SIGINT')).toBe(0);
    }
    expect(existsSync(lockFile(dataDir))).toBe(false);

    const db = await openFolder(dataDir);
    try {
      expect(await column(db, `SELECT uuid FROM drivers WHERE last_name LIKE 'Verrou-%'`)).toEqual(new Set([before, after]));
    } finally {
      await db.close();
    }
  });

  it('lets exactly one of several processes racing for a stale lock take it, and leaves no guard behind', async () => {
    const moduleUrl = pathToFileURL(path.join(ROOT, 'apps/api/dist/db/data-dir-lock.js')).href;
    // Each contender waits for the same instant and tries once; the winner holds the lock until
    // told to stop (SIGTERM), so a contender started late still meets it.
    const contender = `
      const { acquireDataDirLock, DataDirBusyError } = await import(${JSON.stringify(moduleUrl)});
      await new Promise((resolve) => setTimeout(resolve, Math.max(0, Number(process.env.START_AT) - Date.now())));
      try {
        acquireDataDirLock(process.env.DIR, { role: 'backup' });
        process.on('SIGTERM', () => process.exit(0));
        setInterval(() => undefined, 1000);
        console.log('acquired ' + process.pid);
      } catch (error) {
        if (!(error instanceof DataDirBusyError)) throw error;
        console.log('busy ' + error.owner.pid);
      }`;
    for (let round = 0; round < 3; round++) {
      const dir = scratch();
      const stale = staleLock(deadPid());
      writeFileSync(lockFile(dir), stale);
      if (round === 1) {
        // A takeover cut short: its guard, left by a dead process, must be taken over in turn.
        const guard = `${lockFile(dir)}.takeover-${createHash('sha256').update(stale).digest('hex').slice(0, 16)}`;
        writeFileSync(guard, staleLock(deadPid()));
      }
      const startAt = String(Date.now() + 1500);
      const contenders = Array.from({ length: 6 }, () => {
        const child = spawn(process.execPath, ['--input-type=module', '-e', contender], { env: { ...process.env, DIR: dir, START_AT: startAt } });
        let out = '';
        const said = new Promise<string>((resolve) => {
          child.stdout.on('data', (d) => {
            out += String(d);
            if (out.includes('\n')) resolve(out.trim());
          });
          child.stderr.on('data', (d) => (out += String(d)));
          child.once('exit', () => resolve(out.trim()));
        });
        const exited = new Promise((resolve) => child.once('exit', resolve));
        return { child, said, exited };
      });
      const outputs = await Promise.all(contenders.map((c) => c.said));
      const winners = outputs.filter((o) => o.startsWith('acquired '));
      expect(winners, outputs.join('\n')).toHaveLength(1);
      const winner = winners[0]!.split(' ')[1];
      expect(outputs.filter((o) => o === `busy ${winner}`), outputs.join('\n')).toHaveLength(5);
      for (const { child } of contenders) if (String(child.pid) === winner) child.kill('SIGTERM');
      await Promise.all(contenders.map((c) => c.exited));
      // The winner released it on its way out; no takeover guard is left.
      expect(readdirSync(dir)).toEqual([]);
    }
  });
});
