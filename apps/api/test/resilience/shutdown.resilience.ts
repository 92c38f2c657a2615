import http from 'node:http';
import { afterAll, describe, expect, it } from 'vitest';
import { REGISTERS } from '../../src/db/schema/registers.js';
import { cleanUp, DEMO_ADMIN, login, type RunningServer, seededDataDir, scratch, startServer, withNewDatabase } from '../process/harness.js';
import { writeReport } from './faults/report.js';
import { loadTenants, REGISTER_PATHS, type Write, Writes } from './load/registers.js';

/**
 * Issue 20, point 12: SIGTERM 5 s into a load of 20 connections writing into every register. The
 * requests the server already holds finish; those that reach it once it is stopping are answered
 * 503 on their open connection, and new connections are refused (its listener is closed — a load
 * balancer sends them to another process); the process exits 0 within 10 s; every acknowledged
 * write is there after a restart, and no write answered 503 is. No connection is reset: the
 * server keeps its idle keep-alive connections a moment rather than destroying them at once with a
 * request on its way (src/serve.ts); were one cut, its write must not be stored either.
 */

const CONNECTIONS = 20;
const SIGNAL_AFTER_MS = 5_000;
const ACCOUNTS = ['admin@demo.fr', 'user@demo.fr', 'admin2@demo.fr', 'user2@demo.fr'].map((email) => ({ email, password: DEMO_ADMIN.password }));

type Outcome = { sentAt: number; endedAt: number; status?: number; error?: string; write: boolean };

const reports: Record<string, unknown>[] = [];
afterAll(() => {
  cleanUp();
  writeReport('shutdown', reports);
});

/**
 * One request on the keep-alive agent: its status and body, or the socket's error code. `sent.at`:
 * when the request was handed to the system in full ('finish'), which can be later than the call
 * (the agent hands a free socket over on a later tick).
 */
function send(agent: http.Agent, origin: URL, token: string, method: string, path: string, sent: { at: number }, body?: string): Promise<{ status: number; body: string; headers: http.IncomingHttpHeaders }> {
  return new Promise((resolve, reject) => {
    const request = http.request(
      { agent, host: origin.hostname, port: origin.port, method, path, headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) } },
      (response) => {
        let text = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (text += chunk));
        response.on('end', () => resolve({ status: response.statusCode!, body: text, headers: response.headers }));
        response.on('error', reject);
      },
    );
    request.on('error', reject);
    request.once('finish', () => (sent.at = performance.now()));
    request.end(body);
  });
}

async function sigtermUnderLoad(database: string, server: RunningServer, restart: () => Promise<RunningServer>) {
  const { tenants } = await loadTenants(server.url, ACCOUNTS);
  const writes = new Writes();
  const agent = new http.Agent({ keepAlive: true, maxSockets: CONNECTIONS });
  const origin = new URL(server.url);
  const outcomes: Outcome[] = [];
  /** Creations sent but cut without an answer (the connection closed under them). */
  const cut: string[] = [];
  let exitedAt = 0;
  void server.exited.then(() => (exitedAt = performance.now()));

  // Each connection in turn: a creation (every register in turn), then a page of a list.
  const loops = Array.from({ length: CONNECTIONS }, async (_, c) => {
    for (let n = 0; exitedAt === 0; n++) {
      const tenant = tenants[(c + n) % tenants.length]!;
      const register = REGISTERS[(c + n) % REGISTERS.length]!;
      const write: (Write & { marker: string }) | null = n % 2 === 0 ? writes.create(tenant, register) : null;
      // Not sent until written in full (a connection refused never is).
      const sent = { at: Infinity };
      try {
        const answer = write
          ? await send(agent, origin, tenant.token, write.method, write.path, sent, write.body)
          : await send(agent, origin, tenant.token, 'GET', `${REGISTER_PATHS[register]}?page=1&limit=10`, sent);
        outcomes.push({ sentAt: sent.at, endedAt: performance.now(), status: answer.status, write: write !== null });
        write?.answered(answer.status, answer.body);
      } catch (error) {
        outcomes.push({ sentAt: sent.at, endedAt: performance.now(), error: (error as NodeJS.ErrnoException).code ?? String(error), write: write !== null });
        if (write && (error as NodeJS.ErrnoException).code !== 'ECONNREFUSED') cut.push(write.marker);
        // Refused: the listener is closed, the process is on its way out.
        await new Promise((r) => setTimeout(r, 20));
      }
    }
  });

  await new Promise((r) => setTimeout(r, SIGNAL_AFTER_MS));
  const signalAt = performance.now();
  server.child.kill('SIGTERM');
  const code = await server.exited;
  const exitSeconds = (exitedAt - signalAt) / 1000;
  await Promise.all(loops);
  agent.destroy();

  const before = outcomes.filter((o) => o.sentAt < signalAt);
  const after = outcomes.filter((o) => o.sentAt >= signalAt);
  const tally = (list: Outcome[]) => list.reduce<Record<string, number>>((t, o) => {
    const key = o.error ?? String(o.status);
    t[key] = (t[key] ?? 0) + 1;
    return t;
  }, {});
  const inFlight = before.filter((o) => o.endedAt > signalAt);

  const restarted = await restart();
  let readBack;
  try {
    const tokens = await Promise.all(ACCOUNTS.map((account) => login(restarted.url, account)));
    readBack = await writes.missing(restarted.url, tokens);
  } finally {
    await restarted.stop();
  }
  const refusedButStored = [...writes.unacknowledged, ...cut].filter((marker) => readBack.storedMarkers.has(marker));
  const report = {
    database,
    connections: CONNECTIONS,
    signalAfterSeconds: SIGNAL_AFTER_MS / 1000,
    exitCode: code,
    exitSeconds: Math.round(exitSeconds * 100) / 100,
    beforeSignal: tally(before),
    inFlightAtSignal: tally(inFlight),
    afterSignal: tally(after),
    writesAcknowledged: writes.ledger.size,
    writesStored: readBack.stored,
    writesRefused: writes.unacknowledged.size,
    writesCut: cut.length,
  };
  reports.push(report);
  process.stdout.write(`${JSON.stringify(report)}\n`);

  expect(code).toBe(0);
  expect(exitSeconds).toBeLessThan(10);
  // What the server held when the signal came finished normally; nothing sent before it was cut.
  expect(before.filter((o) => o.error || (o.status! >= 300 && o.status !== 503))).toEqual([]);
  expect(inFlight.filter((o) => o.status! < 300).length, 'requêtes en cours au signal et terminées').toBeGreaterThan(0);
  // Afterwards: answered while the process had not yet taken the signal (a busy embedded database
  // delays it), 503 on a connection still open, or the connection refused (listener closed).
  expect(after.filter((o) => (o.error ? o.error !== 'ECONNREFUSED' : o.status! >= 300 && o.status !== 503))).toEqual([]);
  expect(after.length, 'requêtes arrivées pendant l’arrêt').toBeGreaterThan(0);
  expect(readBack.missing).toEqual([]);
  expect(writes.ledger.size).toBeGreaterThan(0);
  expect(refusedButStored).toEqual([]);
}

describe('SIGTERM sous charge : les requêtes en cours finissent, les suivantes ont 503, rien de perdu', () => {
  it('sur PostgreSQL', async () => {
    await withNewDatabase('shutdown', async (databaseUrl) => {
      const dataDir = scratch();
      const env = { DATABASE_URL: databaseUrl, SEED_DEMO: 'true', LOG_LEVEL: 'warn' };
      await sigtermUnderLoad('PostgreSQL', await startServer(dataDir, env), () => startServer(dataDir, env));
    });
  });

  it('une connexion gardée ouverte et inactive au signal : sa requête suivante a 503, pas une coupure', async () => {
    const server = await startServer(seededDataDir(), { LOG_LEVEL: 'warn' });
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const origin = new URL(server.url);
    const token = await login(server.url);
    const page = () => send(agent, origin, token, 'GET', `${REGISTER_PATHS.drivers}?page=1&limit=10`, { at: 0 }).then((a) => a.status, (e: NodeJS.ErrnoException) => e.code);
    try {
      expect(await page()).toBe(200);
      server.child.kill('SIGTERM');
      await new Promise((r) => setTimeout(r, 200));
      // The same connection, idle when the signal came (maxSockets 1: the agent reuses it): the
      // French envelope, as every 503 of the API, not Fastify's bare English one.
      const refused = await send(agent, origin, token, 'GET', `${REGISTER_PATHS.drivers}?page=1&limit=10`, { at: 0 });
      expect(refused.status).toBe(503);
      expect(JSON.parse(refused.body)).toMatchObject({ statusCode: 503, message: 'Le serveur redémarre : réessayez dans quelques secondes.' });
      expect(refused.headers).toMatchObject({ 'retry-after': '2', connection: 'close', 'x-content-type-options': 'nosniff', 'x-request-id': expect.any(String) });
      expect(await server.exited).toBe(0);
    } finally {
      agent.destroy();
    }
  });

  it('sur la base embarquée', async () => {
    const dataDir = seededDataDir();
    await sigtermUnderLoad('base embarquée', await startServer(dataDir, { LOG_LEVEL: 'warn' }), () => startServer(dataDir, { LOG_LEVEL: 'warn' }));
  });
});
