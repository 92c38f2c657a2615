import { afterAll, describe, expect, it } from 'vitest';
import { cleanUp, DEMO_ADMIN, type RunningServer, seededDataDir, scratch, startServer, withNewDatabase } from '../process/harness.js';
import { writeReport } from './faults/report.js';
import { loadTenants, REGISTER_PATHS, registersOfOpenApi, Writes } from './load/registers.js';
import { type LoadRun, type Memory, memory, runLoad } from './load/run-load.js';

/**
 * Issue 20, point 10: 50 connections for a minute, then for a second one, on the built server: the
 * web app's reads of every register and one write in four (create, change, archive in every
 * register), on PostgreSQL and on the embedded database. No error, no 5xx, every acknowledged write
 * read back, and the RSS after the second minute within 10 % of the RSS after the first. Each is
 * the lowest the server comes down to in the SETTLE_SECONDS of rest after its minute, once V8's
 * memory reducer has returned what the load left. Measured on PostgreSQL, every 5 s after a
 * minute: RSS 232 MB for 15 s, 200 MB at 20 s once the young generation shrank, 173 MB at 40 s once
 * the old space was compacted, then still; in another run the compaction had not come 45 s after
 * the second minute (199 MB after the first, 235 after the second). Read under load or at a fixed
 * instant, the RSS is a point of V8's sawtooth and moves by more than the 10 % a leak is told by;
 * what a leak holds stays in the lowest point. Speed is measured and reported
 * (docs/performance.md), not asserted: its targets live in the benchmarks.
 */

const CONNECTIONS = 50;
const METRICS_TOKEN = 'resilience-load-metrics-token-0123456789';
const MINUTE = Number(process.env.RESILIENCE_LOAD_MINUTE ?? 60);
// The demo's members of both organizations (the administrators and the users).
const ACCOUNTS = ['admin@demo.fr', 'user@demo.fr', 'admin2@demo.fr', 'user2@demo.fr', 'user3@demo.fr'].map((email) => ({ email, password: DEMO_ADMIN.password }));

/** One minute of load: speed as the client saw it. */
type Minute = { requestsPerSecond: number; p50Ms: number; p99Ms: number; requests: number };

type Report = {
  database: string;
  connections: number;
  seconds: number;
  minutes: [Minute, Minute];
  requests: number;
  errors: number;
  timeouts: number;
  status5xx: number;
  non2xx: number;
  statuses: Record<string, number>;
  byKind: LoadRun['byKind'];
  latencyByKind: [LoadRun['latencyByKind'], LoadRun['latencyByKind']];
  writesSent: number;
  /** Creations, changes and archives the server acknowledged (201, 200). */
  writesAcknowledged: number;
  /** The records they made, each read back with its last change and its archive. */
  records: number;
  recordsFound: number;
  /** Before the load, then the lowest point of the rest after each minute (its second in `afterSeconds`). */
  memory: { beforeLoad: Memory; afterMinute1: Memory; afterMinute2: Memory };
};

const reports: Report[] = [];

afterAll(() => {
  cleanUp();
  if (reports.length === 0) return;
  process.stdout.write(
    [
      '',
      '| Base | req/s (1re min · 2e) | p50 (ms) | p99 (ms) | erreurs | 5xx | écritures acquittées | enregistrements écrits / relus intacts | RSS avant → après 1 min → après 2 min (Mo, au repos) | tas V8 utilisé / réservé après 1 min → après 2 min (Mo) |',
      '|---|---:|---:|---:|---:|---:|---:|---:|---|---|',
      ...reports.map(({ minutes: [m1, m2], memory: { beforeLoad, afterMinute1, afterMinute2 }, ...r }) =>
        [
          r.database,
          `${Math.round(m1.requestsPerSecond)} · ${Math.round(m2.requestsPerSecond)}`,
          `${m1.p50Ms} · ${m2.p50Ms}`,
          `${m1.p99Ms} · ${m2.p99Ms}`,
          r.errors + r.timeouts,
          r.status5xx,
          r.writesAcknowledged,
          `${r.records} / ${r.recordsFound}`,
          `${beforeLoad.rssMb} → ${afterMinute1.rssMb} → ${afterMinute2.rssMb}`,
          `${afterMinute1.heapUsedMb} / ${afterMinute1.heapTotalMb} → ${afterMinute2.heapUsedMb} / ${afterMinute2.heapTotalMb}`,
        ].join(' | '),
      ).map((row) => `| ${row} |`),
      '',
    ].join('\n') + '\n',
  );
  writeReport('load', reports);
});

/** The rest after each minute in which the server's memory is read every 5 s (V8's memory reducer starts after 8 s idle). */
const SETTLE_SECONDS = Number(process.env.RESILIENCE_LOAD_SETTLE ?? 75);

async function underLoad(database: string, server: RunningServer) {
  const { tenants, guarantees } = await loadTenants(server.url, ACCOUNTS);
  const writes = new Writes();
  /** The memory at the lowest RSS of the rest that follows a minute, with the RSS read every 5 s. */
  const settled = async () => {
    let lowest: Memory | undefined;
    for (let second = 5; second <= SETTLE_SECONDS; second += 5) {
      await new Promise((resolve) => setTimeout(resolve, 5_000));
      const now = await memory(server.url, server.pid, METRICS_TOKEN);
      if (!lowest || now.rssMb < lowest.rssMb) lowest = { ...now, afterSeconds: second };
    }
    return lowest!;
  };
  const minute = (firstSeed: number) => runLoad({ origin: server.url, tenants, guarantees, writes, connections: CONNECTIONS, seconds: MINUTE, firstSeed });
  const beforeLoad = await memory(server.url, server.pid, METRICS_TOKEN);
  const first = await minute(1);
  const afterMinute1 = await settled();
  const second = await minute(1 + CONNECTIONS);
  const afterMinute2 = await settled();
  const readBack = await writes.missing(
    server.url,
    tenants.map((t) => t.token),
  );
  const runs = [first, second] as const;
  const sum = (count: (run: LoadRun) => number) => runs.reduce((total, run) => total + count(run), 0);
  const statuses: Record<string, number> = {};
  const byKind: LoadRun['byKind'] = {};
  for (const run of runs) {
    for (const [status, count] of Object.entries(run.statuses)) statuses[status] = (statuses[status] ?? 0) + count;
    for (const [kind, counts] of Object.entries(run.byKind)) for (const [status, count] of Object.entries(counts)) (byKind[kind] ??= {})[status] = (byKind[kind]![status] ?? 0) + count;
  }
  const status5xx = Object.entries(statuses).reduce((total, [status, count]) => total + (Number(status) >= 500 ? count : 0), 0);
  const asMinute = (run: LoadRun): Minute => ({ requestsPerSecond: run.requests, p50Ms: run.p50, p99Ms: run.p99, requests: run.total });
  const run = { errors: sum((r) => r.errors), timeouts: sum((r) => r.timeouts), non2xx: sum((r) => r.non2xx), byKind };
  const report: Report = {
    database,
    connections: CONNECTIONS,
    seconds: 2 * MINUTE,
    minutes: [asMinute(first), asMinute(second)],
    requests: sum((r) => r.total),
    errors: run.errors,
    timeouts: run.timeouts,
    status5xx,
    non2xx: run.non2xx,
    statuses,
    byKind,
    latencyByKind: [first.latencyByKind, second.latencyByKind],
    writesSent: sum((r) => r.writesSent),
    writesAcknowledged: Object.entries(byKind).reduce((total, [kind, counts]) => total + (kind.startsWith('read.') ? 0 : (counts[201] ?? 0) + (counts[200] ?? 0)), 0),
    records: writes.ledger.size,
    recordsFound: readBack.stored,
    memory: { beforeLoad, afterMinute1, afterMinute2 },
  };
  reports.push(report);

  // Every register was read and written: creation, change and archive.
  for (const register of Object.keys(REGISTER_PATHS)) {
    for (const action of ['create', 'update', 'archive']) expect(run.byKind[`${action}.${register}`]?.[action === 'create' ? 201 : 200] ?? 0, `${action}.${register}`).toBeGreaterThan(0);
    expect(run.byKind[`read.${register}`]?.[200] ?? 0, `read.${register}`).toBeGreaterThan(0);
  }
  expect({ errors: run.errors, timeouts: run.timeouts, status5xx, non2xx: run.non2xx }).toEqual({ errors: 0, timeouts: 0, status5xx: 0, non2xx: 0 });
  expect(readBack.missing).toEqual([]);
  expect(afterMinute2.rssMb, `RSS ${afterMinute1.rssMb} Mo après une minute, ${afterMinute2.rssMb} Mo après deux`).toBeLessThanOrEqual(afterMinute1.rssMb * 1.1);
}

describe('charge : 50 connexions, deux minutes, chaque registre lu et écrit', () => {
  it("les registres chargés sont tous ceux de l'API", () => {
    expect(registersOfOpenApi()).toEqual(Object.values(REGISTER_PATHS).sort());
  });

  it('sur PostgreSQL : aucune erreur, aucune écriture perdue, mémoire stable', async () => {
    await withNewDatabase('load', async (databaseUrl) => {
      const server = await startServer(scratch(), { DATABASE_URL: databaseUrl, SEED_DEMO: 'true', LOG_LEVEL: 'warn', METRICS_TOKEN });
      try {
        await underLoad('PostgreSQL', server);
      } finally {
        await server.stop();
      }
    });
  });

  it('sur la base embarquée : aucune erreur, aucune écriture perdue, mémoire stable', async () => {
    const server = await startServer(seededDataDir(), { LOG_LEVEL: 'warn', METRICS_TOKEN });
    try {
      await underLoad('base embarquée', server);
    } finally {
      await server.stop();
    }
  });
});
