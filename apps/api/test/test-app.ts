import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, inject } from 'vitest';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { type DatabaseHandle, openPglite, openPostgres } from '../src/db/client.js';
import { withSystem, type WriteTx } from '../src/db/scope.js';
import { DEFAULT_TEST_PASSWORD } from '../src/seed/factories.js';

export { DEFAULT_TEST_PASSWORD };

function withDatabase(url: string, database: string) {
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.toString();
}

/** A pino line as the tests read it: its level and message, and whatever else the line carries. */
export type LogLine = { level: number; msg: string; reqId?: string; time?: number; [key: string]: unknown };

/**
 * A log stream for createTestApp that keeps every line, as written (`raw`: to search for text that
 * must not be there) and parsed (`lines`).
 */
export function captureLogLines<T extends object = LogLine>(): { raw: string[]; lines: T[]; stream: Writable } {
  const raw: string[] = [];
  const lines: T[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      for (const line of String(chunk).split('\n').filter(Boolean)) {
        raw.push(line);
        lines.push(JSON.parse(line) as T);
      }
      done();
    },
  });
  return { raw, lines, stream };
}

/** The security events (plugins/request-log.ts) one answer wrote, found by its request id. */
export function securityEventsOf(lines: LogLine[], response: { headers: Record<string, unknown> }): LogLine[] {
  return lines.filter((line) => line.msg === 'security event' && line.reqId === response.headers['x-request-id']);
}

/**
 * What `open` makes (an app and its helpers) for the tests of the describe calling this: made before
 * them, closed after them by `close` (by default the app's). The tests read it through the function
 * returned: the describe's body runs before its beforeAll.
 */
export function perDescribe<C extends { t: TestContext }>(open: () => Promise<C>, close: (opened: C) => Promise<void> = (opened) => opened.t.close()): () => C {
  let opened: C | undefined;
  beforeAll(async () => {
    opened = await open();
  });
  afterAll(async () => {
    if (opened) await close(opened);
  });
  return () => {
    if (!opened) throw new Error('perDescribe: read before its beforeAll ran');
    return opened;
  };
}

/**
 * Another session of the test app's PostgreSQL that takes a table in ACCESS EXCLUSIVE mode until
 * released (or the test ends): the app's statements on it wait past a short statement timeout.
 * For the describe calling it; `context` is its perDescribe reader.
 */
export function tableLocker(context: () => { t: TestContext }) {
  let client: pg.Client;
  beforeAll(async () => {
    client = new pg.Client({ connectionString: (context().t.database.pool!.options as { connectionString: string }).connectionString });
    await client.connect();
  });
  afterEach(() => client.query('ROLLBACK'));
  afterAll(() => client.end());
  return {
    async lock(table: string) {
      await client.query('BEGIN');
      await client.query(`LOCK TABLE ${table} IN ACCESS EXCLUSIVE MODE`);
    },
    release: () => client.query('ROLLBACK'),
  };
}

/** Database options a test may change (a short wait or statement timeout to provoke a 503). */
export type TestDatabaseOptions = {
  maxWaitMs?: number;
  statementTimeoutMs?: number;
  /** PostgreSQL: the app's pool connects through this port of 127.0.0.1 (a test's TCP proxy, test/tcp-proxy.ts). */
  throughPort?: number;
};

/**
 * A fresh, migrated database for one test file: a copy of the run's template or PGlite dump.
 * PostgreSQL: `url` reaches the test file's database directly (a second pool, as another API process has).
 */
export async function createTestDatabase(options: TestDatabaseOptions = {}): Promise<DatabaseHandle & { kind: 'postgres' | 'pglite'; url?: string }> {
  const testDb = inject('testDb');
  if (testDb.kind === 'pglite') {
    const dump = new Blob([readFileSync(testDb.dumpFile)]);
    return openPglite({ loadDataDir: dump, migrate: false, maxWaitMs: options.maxWaitMs });
  }
  const name = `${testDb.template}_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: testDb.url });
  await admin.connect();
  for (let attempt = 0; ; attempt++) {
    try {
      await admin.query(`CREATE DATABASE ${name} TEMPLATE ${testDb.template}`);
      break;
    } catch (error) {
      // Two files copying the template at the same instant: try again shortly.
      if (attempt >= 20 || !String((error as Error).message).includes('being accessed')) throw error;
      await new Promise((r) => setTimeout(r, 100 + Math.random() * 200));
    }
  }
  const { throughPort, ...poolOptions } = options;
  const url = new URL(withDatabase(testDb.url, name));
  if (throughPort !== undefined) {
    url.hostname = '127.0.0.1';
    url.port = String(throughPort);
  }
  const handle = await openPostgres(url.toString(), { migrate: false, max: 4, ...poolOptions });
  return {
    ...handle,
    url: withDatabase(testDb.url, name),
    async close() {
      await handle.close();
      await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.end();
    },
  };
}

export type TestContext = {
  app: FastifyInstance;
  database: DatabaseHandle;
  /**
   * The app's DATA_DIR (its stored files under media/): the one given in `env`, else a temporary
   * folder of its own, removed by close() — a test never writes into the repository's data/.
   */
  dataDir: string;
  /** Runs factories across organizations, as the seed does. */
  seed<T>(fn: (tx: WriteTx) => Promise<T>): Promise<T>;
  login(email: string, password?: string): Promise<string>;
  /**
   * The errors the app logged (a 500's cause, with its stack), newest last: a test's message for
   * an unexpected 5xx quotes them, since the test app writes no log. Empty when the test gave its
   * own log stream.
   */
  loggedErrors(): string[];
  /** app.inject with a bearer token. */
  as(token: string, options: InjectOptions): Promise<LightMyRequestResponse>;
  close(): Promise<void>;
};

export async function createTestApp(
  env: Record<string, string> = {},
  databaseOptions: TestDatabaseOptions = {},
  logStream?: NodeJS.WritableStream,
): Promise<TestContext> {
  return testAppOn(await createTestDatabase(databaseOptions), env, logStream);
}

/** An app on a database already open (a second instance on the same PostgreSQL database, say); close() closes both. */
export async function testAppOn(database: DatabaseHandle, env: Record<string, string> = {}, logStream?: NodeJS.WritableStream): Promise<TestContext> {
  const ownDataDir = env.DATA_DIR === undefined ? mkdtempSync(path.join(tmpdir(), 'flotte-test-')) : null;
  const dataDir = env.DATA_DIR ?? ownDataDir!;
  // Background jobs are only sent, not run, unless a test asks (JOBS_WORKER: 'true').
  // Without a stream of the test's own, the errors are kept (not printed) for loggedErrors().
  const errors: string[] = [];
  const errorStream = new Writable({
    write(line: Buffer, _encoding, done) {
      errors.push(describeLogLine(line.toString()));
      if (errors.length > 20) errors.shift();
      done();
    },
  });
  const config = loadConfig({
    APP_SECRET: 'test-secret-0123456789-0123456789-abcdef',
    LOG_LEVEL: logStream ? 'silent' : 'error',
    JOBS_WORKER: 'false',
    DATA_DIR: dataDir,
    ...env,
  });
  const app = await buildApp(config, database, { serveWeb: false, logger: false, logStream: logStream ?? errorStream });
  await app.ready();
  return {
    app,
    database,
    dataDir,
    seed: (fn) => withSystem(database.db, fn),
    loggedErrors: () => [...errors],
    async login(email, password = DEFAULT_TEST_PASSWORD) {
      const response = await app.inject({ method: 'POST', url: '/api/auth/login', payload: { email, password } });
      if (response.statusCode !== 200) throw new Error(`login ${email} failed: ${response.statusCode} ${response.body}`);
      return response.json<{ tokens: { access_token: string } }>().tokens.access_token;
    },
    as(token, options) {
      return app.inject({ ...options, headers: { ...options.headers, authorization: `Bearer ${token}` } });
    },
    async close() {
      await app.close();
      await database.close();
      if (ownDataDir) rmSync(ownDataDir, { recursive: true, force: true });
    },
  };
}

/** One pino line as « message: error type: error message + stack ». */
function describeLogLine(line: string): string {
  try {
    const entry = JSON.parse(line) as { msg?: string; err?: { type?: string; message?: string; stack?: string } };
    return `${entry.msg ?? ''}: ${entry.err?.stack ?? `${entry.err?.type ?? ''} ${entry.err?.message ?? ''}`}`;
  } catch {
    return line;
  }
}
