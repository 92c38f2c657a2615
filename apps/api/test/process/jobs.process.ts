import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { cleanUp, ROOT, scratch, waitUntil, withNewDatabase } from './harness.js';

afterAll(cleanUp);

/**
 * kill -9 of a process with a job in flight: the job is not lost, another run of it completes.
 * The workers are real processes (test/process/job-worker.ts, through tsx) opening the database as
 * the server does: the embedded folder with its lock, or PostgreSQL.
 */

const WORKER = path.join(ROOT, 'apps/api/test/process/job-worker.ts');
const children = new Set<ChildProcess>();
afterAll(() => {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
});

type Worker = { child: ChildProcess; pid: number; output(): string; exited: Promise<number | string> };

async function startWorker(env: Record<string, string>): Promise<Worker> {
  const child = spawn(process.execPath, ['--import', 'tsx', '--conditions=source', WORKER], {
    cwd: ROOT,
    env: { ...process.env, DATABASE_URL: '', SEED_DEMO: 'false', LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.add(child);
  let output = '';
  child.stdout.on('data', (d) => (output += String(d)));
  child.stderr.on('data', (d) => (output += String(d)));
  const exited = new Promise<number | string>((resolve) => child.once('exit', (code, signal) => resolve(code ?? signal ?? -1)));
  let exitCode: number | string | null = null;
  void exited.then((code) => (exitCode = code));
  await waitUntil(() => output.includes('ready\n') || exitCode !== null, 90_000);
  if (exitCode !== null) throw new Error(`le worker s'est arrêté (${exitCode}) :\n${output}`);
  return { child, pid: child.pid!, output: () => output, exited };
}

function journalLines(file: string): string[][] {
  return existsSync(file) ? readFileSync(file, 'utf8').trim().split('\n').filter(Boolean).map((line) => line.split(' ')) : [];
}

async function killedInFlightIsRetried(env: Record<string, string>, journal: string, options: { secondBeforeKill: boolean; recoveredAtStart?: boolean }) {
  const first = await startWorker({ ...env, JOB_JOURNAL: journal, SEND_JOB: 'true' });
  const jobId = /sent (\S+)/.exec(first.output())?.[1];
  expect(jobId).toMatch(/^[0-9a-f-]{36}$/);
  await waitUntil(() => journalLines(journal).some(([event, id]) => event === 'start' && id === jobId), 30_000);
  // On PostgreSQL the second worker runs beside the first: it must not take the job while it runs.
  const second = options.secondBeforeKill ? await startWorker({ ...env, JOB_JOURNAL: journal }) : undefined;
  first.child.kill('SIGKILL');
  expect(await first.exited).toBe('SIGKILL');
  const survivor = second ?? (await startWorker({ ...env, JOB_JOURNAL: journal }));
  await waitUntil(() => journalLines(journal).some(([event, id]) => event === 'done' && id === jobId), 60_000);
  const lines = journalLines(journal).filter(([, id]) => id === jobId);
  // Started by the killed process, then once more by the survivor, which finished it.
  expect(lines).toEqual([
    ['start', jobId, String(first.pid), '1'],
    ['start', jobId, String(survivor.pid), '2'],
    ['done', jobId, String(survivor.pid), '2'],
  ]);
  // The embedded folder is locked to one process: what the dead one left active is failed at start.
  if (options.recoveredAtStart) expect(survivor.output()).toContain('tâches interrompues par un arrêt brutal');
  survivor.child.kill('SIGTERM');
  expect(await survivor.exited).toBe(0);
  return jobId!;
}

describe('a job in flight survives kill -9 of its process', () => {
  it('embedded database: the next process on the folder retries it at once', async () => {
    const dataDir = scratch();
    const journal = path.join(dataDir, 'journal.txt');
    const started = Date.now();
    await killedInFlightIsRetried({ DATA_DIR: dataDir, JOB_TIMEOUT_SECONDS: '600' }, journal, { secondBeforeKill: false, recoveredAtStart: true });
    process.stdout.write(`PGlite : tâche reprise après kill -9 en ${Date.now() - started} ms (démarrages compris)\n`);
  });

  it('SIGTERM with a job in flight: the process exits cleanly within its stop timeout, the job is run again', async () => {
    const dataDir = scratch();
    const journal = path.join(dataDir, 'journal.txt');
    const first = await startWorker({ DATA_DIR: dataDir, JOB_JOURNAL: journal, SEND_JOB: 'true' });
    const jobId = /sent (\S+)/.exec(first.output())?.[1];
    await waitUntil(() => journalLines(journal).some(([event, id]) => event === 'start' && id === jobId), 30_000);
    const stopped = Date.now();
    first.child.kill('SIGTERM');
    expect(await first.exited).toBe(0);
    // The worker gives running jobs 3 s (the server 8 s): well within the 10 s of a SIGTERM.
    expect(Date.now() - stopped).toBeLessThan(6_000);
    const next = await startWorker({ DATA_DIR: dataDir, JOB_JOURNAL: journal });
    await waitUntil(() => journalLines(journal).some(([event, id]) => event === 'done' && id === jobId), 30_000);
    expect(journalLines(journal).filter(([, id]) => id === jobId).map(([event, , pid, attempt]) => [event, pid, attempt])).toEqual([
      ['start', String(first.pid), '1'],
      ['start', String(next.pid), '2'],
      ['done', String(next.pid), '2'],
    ]);
    // Returned to the queue by the stop itself, not left active for a restart to recover.
    expect(next.output()).not.toContain('tâches interrompues par un arrêt brutal');
    next.child.kill('SIGTERM');
    expect(await next.exited).toBe(0);
  });

  const postgresUrl = inject('postgresUrl');
  it.skipIf(!postgresUrl)('PostgreSQL: another worker running beside it takes it over once it expires', async () => {
    await withNewDatabase('jobs', async (url) => {
      const dataDir = scratch();
      const jobId = await killedInFlightIsRetried({ DATABASE_URL: url, DATA_DIR: dataDir }, path.join(dataDir, 'journal.txt'), { secondBeforeKill: true });
      const target = new pg.Client({ connectionString: url });
      await target.connect();
      try {
        const { rows } = await target.query(`SELECT state, retry_count FROM pgboss.job WHERE id = $1 UNION ALL SELECT state, retry_count FROM pgboss.archive WHERE id = $1`, [jobId]);
        expect(rows).toEqual([{ state: 'completed', retry_count: 1 }]);
      } finally {
        await target.end();
      }
    });
  });
});
