import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { cleanUp, login, scratch, startServer, withNewDatabase, type RunningServer } from '../process/harness.js';
import { startTcpProxy, type TcpProxy } from '../tcp-proxy.js';
import { poll, sleep, startLoad, type Sample } from './faults/load.js';
import { type Check, printChecks } from './faults/report.js';

/**
 * Issue 20, point 13: PostgreSQL goes away under load. The built server runs as a real process
 * whose DATABASE_URL goes through a TCP proxy the test controls (test/tcp-proxy.ts), with readers
 * and writers at work; the proxy is cut (connections reset, new ones refused), then frozen
 * (connections accepted, nothing answered). Every answer must come within 5 s: 503 with
 * Retry-After and a French message, never a 500 or a hang; the process stays up; /api/ready says
 * 503; within 5 s of the database's return requests succeed again; and every write acknowledged
 * is stored, every write refused is stored wholly or not at all (its driver row with its activity
 * log entry, or neither). plugins/database-outage.test.ts proves the same in process, request by
 * request; this is the whole server, under load.
 */

const ANSWER_LIMIT_MS = 5_000;
const BACK_LIMIT_MS = 5_000;
const FRENCH_503 = /réessayez|indisponible|sollicité/;

const checks: Check[] = [];

type Outcome = {
  samples: Sample[];
  faultAt: number;
  restoredAt: number;
  ready: { at: number; status: number; ms: number }[];
  health: { at: number; status: number; ms: number }[];
};

async function storedMarkers(databaseUrl: string, prefix: string) {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    // The superuser sees every organization's rows (row-level security does not apply to it).
    const drivers = await client.query<{ uuid: string; last_name: string }>('SELECT uuid, last_name FROM drivers WHERE last_name LIKE $1', [`${prefix}-%`]);
    const logged = await client.query<{ record_uuid: string; n: string }>(
      "SELECT record_uuid, count(*) AS n FROM audit_log WHERE entity = 'driver' AND action = 'insert' AND record_uuid = ANY($1::uuid[]) GROUP BY record_uuid",
      [drivers.rows.map((row) => row.uuid)],
    );
    const logCount = new Map(logged.rows.map((row) => [row.record_uuid, Number(row.n)]));
    const byMarker = new Map<string, { rows: number; logEntries: number }>();
    for (const row of drivers.rows) {
      const entry = byMarker.get(row.last_name) ?? { rows: 0, logEntries: 0 };
      entry.rows++;
      entry.logEntries += logCount.get(row.uuid) ?? 0;
      byMarker.set(row.last_name, entry);
    }
    return byMarker;
  } finally {
    await client.end();
  }
}

describe.runIf(inject('postgresUrl'))('PostgreSQL cut, then frozen, under the built server at work', () => {
  let proxy: TcpProxy;
  let server: RunningServer;
  let databaseUrl: string;
  let token: string;
  let release: () => void;
  let dropped: Promise<void>;

  beforeAll(async () => {
    // The database lives for the whole file: withNewDatabase drops it when `release` is called.
    const ready = new Promise<string>((resolveUrl) => {
      dropped = withNewDatabase('outage', (url) => {
        resolveUrl(url);
        return new Promise<void>((resolve) => (release = resolve));
      });
    });
    databaseUrl = await ready;
    const target = new URL(databaseUrl);
    proxy = await startTcpProxy({ host: target.hostname, port: Number(target.port || 5432) });
    const throughProxy = new URL(databaseUrl);
    throughProxy.hostname = '127.0.0.1';
    throughProxy.port = String(proxy.port);
    server = await startServer(scratch(), { DATABASE_URL: throughProxy.toString(), SEED_DEMO: 'true', LOG_LEVEL: 'warn' });
    token = await login(server.url);
  });

  afterAll(async () => {
    printChecks('pannes-postgresql', checks);
    await server?.stop('SIGKILL');
    await proxy?.close();
    cleanUp();
    release?.();
    await dropped;
  });

  async function underFault(fault: 'cut' | 'freeze', markerPrefix: string): Promise<Outcome> {
    const load = startLoad(server.url, token, { readers: 6, writers: 4, markerPrefix });
    await sleep(2_500);
    const ready = poll(`${server.url}/api/ready`, 250);
    const health = poll(`${server.url}/api/health`, 500);
    const faultAt = Date.now();
    proxy[fault]();
    await sleep(8_000);
    proxy.restore();
    const restoredAt = Date.now();
    await sleep(6_000);
    const [samples, readyAnswers, healthAnswers] = await Promise.all([load.stop(), ready.stop(), health.stop()]);
    return { samples, faultAt, restoredAt, ready: readyAnswers, health: healthAnswers };
  }

  async function judge(label: string, outcome: Outcome, markerPrefix: string) {
    const { samples, faultAt, restoredAt } = outcome;
    const slowest = Math.max(...samples.map((s) => s.ended - s.started));
    const during = samples.filter((s) => s.ended > faultAt && s.started < restoredAt);
    const refused = during.filter((s) => s.status !== 503 && (s.status < 200 || s.status >= 300));
    const unavailable = during.filter((s) => s.status === 503);
    const badUnavailable = unavailable.filter((s) => !s.retryAfter || !FRENCH_503.test(s.message ?? ''));
    const readyDuring = outcome.ready.filter((a) => a.at > faultAt + 1_000 && a.at + a.ms < restoredAt);
    const healthDuring = outcome.health.filter((a) => a.at > faultAt && a.at < restoredAt);
    const firstOk = (kind: Sample['kind']) => Math.min(...samples.filter((s) => s.kind === kind && s.started >= restoredAt && s.status >= 200 && s.status < 300).map((s) => s.ended - restoredAt));
    const backRead = firstOk('read');
    const backWrite = firstOk('write');
    const backReady = Math.min(...outcome.ready.filter((a) => a.at >= restoredAt && a.status === 200).map((a) => a.at + a.ms - restoredAt));

    // Writes: every 201 stored once with its log entry; every other answer stored wholly or not at all.
    const stored = await storedMarkers(databaseUrl, markerPrefix);
    const writes = samples.filter((s) => s.kind === 'write');
    const acknowledged = writes.filter((s) => s.status === 201);
    const lost = acknowledged.filter((s) => stored.get(s.marker!)?.rows !== 1);
    const notAcknowledged = writes.filter((s) => s.status !== 201);
    const partial = writes.filter((s) => {
      const entry = stored.get(s.marker!);
      return entry !== undefined && (entry.rows !== 1 || entry.logEntries !== 1);
    });
    const storedAnyway = notAcknowledged.filter((s) => stored.has(s.marker!)).length;

    const counts = new Map<number, number>();
    for (const s of during) counts.set(s.status, (counts.get(s.status) ?? 0) + 1);
    const statuses = [...counts].map(([status, n]) => `${status}×${n}`).join(' ');
    checks.push(
      { check: `${label} : délai de chaque réponse`, tried: `${samples.length} requêtes (6 lectures, 4 écritures en boucle)`, measured: `la plus lente ${slowest} ms`, held: slowest < ANSWER_LIMIT_MS },
      { check: `${label} : réponses pendant la panne`, tried: `${during.length} réponses`, measured: statuses, held: refused.length === 0 && badUnavailable.length === 0 && unavailable.length > 0 },
      { check: `${label} : /api/ready pendant la panne`, tried: `${readyDuring.length} sondes`, measured: readyDuring.map((a) => a.status).join(',').slice(0, 40), held: readyDuring.length > 0 && readyDuring.every((a) => a.status === 503) },
      { check: `${label} : /api/health et processus`, tried: `${healthDuring.length} sondes`, measured: `${healthDuring.filter((a) => a.status === 200).length}×200, processus ${server.child.exitCode === null ? 'en vie' : 'arrêté'}`, held: healthDuring.every((a) => a.status === 200) && server.child.exitCode === null },
      { check: `${label} : retour du service`, tried: 'proxy rétabli', measured: `lecture ${backRead} ms, écriture ${backWrite} ms, ready ${backReady} ms`, held: Math.max(backRead, backWrite, backReady) < BACK_LIMIT_MS },
      {
        check: `${label} : écritures`,
        tried: `${writes.length} créations`,
        measured: `${acknowledged.length} acquittées (${lost.length} perdues), ${notAcknowledged.length} refusées dont ${storedAnyway} entières, ${partial.length} partielles`,
        held: lost.length === 0 && partial.length === 0,
      },
    );

    expect(slowest, 'an answer came after 5 s').toBeLessThan(ANSWER_LIMIT_MS);
    expect(refused.map((s) => `${s.kind} ${s.status}`), 'answers other than 2xx and 503 during the outage').toEqual([]);
    expect(unavailable.length).toBeGreaterThan(0);
    expect(badUnavailable, '503 without Retry-After or a French message').toEqual([]);
    expect(readyDuring.length).toBeGreaterThan(0);
    expect(readyDuring.filter((a) => a.status !== 503)).toEqual([]);
    expect(healthDuring.every((a) => a.status === 200)).toBe(true);
    expect(server.child.exitCode).toBeNull();
    expect(Math.max(backRead, backWrite, backReady)).toBeLessThan(BACK_LIMIT_MS);
    expect(acknowledged.length).toBeGreaterThan(0);
    expect(lost.map((s) => s.marker)).toEqual([]);
    expect(partial.map((s) => s.marker)).toEqual([]);
  }

  it('cut (stopped server, reset connections): 503 within 5 s, ready 503, back within 5 s, no write lost or partial', async () => {
    const outcome = await underFault('cut', 'Coupure');
    await judge('Coupure', outcome, 'Coupure');
  });

  it('frozen (connections accepted, nothing answered): 503 within 5 s, ready 503, back within 5 s, no write lost or partial', async () => {
    const outcome = await underFault('freeze', 'Gel');
    await judge('Gel', outcome, 'Gel');
  });
});
