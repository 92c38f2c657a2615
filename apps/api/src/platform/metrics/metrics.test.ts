import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { withTenant } from '../../db/scope.js';
import { createDrivers, createOrganization, createUser, linkUser } from '../../seed/factories.js';
import { createTestApp, type TestContext, type TestDatabaseOptions } from '../../../test/test-app.js';
import { multipartFile } from '../../../test/multipart.js';
import { parsePrometheusText, type Sample, seriesOf, valueOf } from '../../../test/prometheus-text.js';
import { createTestDatabase } from '../../../test/test-app.js';
import { z } from 'zod';
import type { DatabaseHandle } from '../../db/client.js';
import { defineJob, PermanentJobError } from '../jobs/define-job.js';
import { JobQueue } from '../jobs/job-queue.js';
import { buildApp } from '../../app.js';
import { loadConfig } from '../../config.js';
import { createMetrics } from './metrics.js';
import { attachObservations } from './observations.js';
import { METRICS_UNAUTHORIZED_MESSAGE } from './metrics-plugin.js';

/**
 * GET /metrics (decision 045): off without METRICS_TOKEN, answered only with its bearer token
 * (a wrong one counted as a failed login), and figures that move when their code runs — labelled
 * by route templates and statement families, never by what a client sends.
 */

const onPostgres = inject('testDb').kind === 'postgres';
const TOKEN = 'metriques-0123456789abcdef0123456789abcdef';

type MetricsApp = { t: TestContext; org: string; user: string };

async function metricsApp(env: Record<string, string> = {}, databaseOptions: TestDatabaseOptions = {}): Promise<MetricsApp> {
  const t = await createTestApp({ METRICS_TOKEN: TOKEN, ...env }, databaseOptions);
  const org = await t.seed(async (tx) => {
    const organization = await createOrganization(tx, { title: 'Transports Métrique' });
    const admin = await createUser(tx, { email: 'gestion@metrique.fr' });
    await linkUser(tx, organization.uuid, admin.uuid, 'ADMIN');
    await createDrivers(tx, organization.uuid, [{ lastName: 'Conducteur Métrique' }]);
    return organization.uuid;
  });
  return { t, org, user: await t.login('gestion@metrique.fr') };
}

/** Waits for what a background worker does on its own time, checking every 100 ms. */
async function eventually(condition: () => Promise<boolean>, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`condition never met within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

async function scrape(t: TestContext): Promise<Sample[]> {
  const response = await t.app.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } });
  expect(response.statusCode, response.body).toBe(200);
  return parsePrometheusText(response.body);
}

describe('/metrics without METRICS_TOKEN', () => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('answers 404, token or not: the metrics are off', async () => {
    for (const headers of [{}, { authorization: `Bearer ${TOKEN}` }]) {
      const response = await t.app.inject({ method: 'GET', url: '/metrics', headers });
      expect(response.statusCode).toBe(404);
      expect(response.body).not.toContain('flotte_');
    }
  });
});

describe('/metrics without METRICS_TOKEN beside the web app', () => {
  it('answers 404, not the web app’s page', async () => {
    const dist = mkdtempSync(join(tmpdir(), 'flotte-metrics-web-'));
    writeFileSync(join(dist, 'index.html'), '<!doctype html><html><body><div id="root"></div></body></html>');
    const database = await createTestDatabase();
    const app = await buildApp(loadConfig({ APP_SECRET: 'test-secret-0123456789-0123456789-abcdef', LOG_LEVEL: 'silent', WEB_DIST: dist, DATA_DIR: dist }), database, { logger: false, startJobs: false });
    try {
      const response = await app.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } });
      expect(response.statusCode).toBe(404);
      expect(response.headers['content-type']).toMatch(/^application\/json/);
      // The fallback still serves the app's pages.
      expect((await app.inject({ method: 'GET', url: '/vehicules' })).statusCode).toBe(200);
    } finally {
      await app.close();
      await database.close();
      rmSync(dist, { recursive: true, force: true });
    }
  });
});

describe('/metrics with METRICS_TOKEN', () => {
  let ctx: MetricsApp;
  beforeAll(async () => {
    ctx = await metricsApp();
  });
  afterAll(() => ctx.t.close());

  it('refuses a missing or wrong token with 401 and a short French body', async () => {
    const { t } = ctx;
    for (const authorization of [undefined, `Bearer ${TOKEN}x`, `Bearer ${TOKEN.slice(0, -1)}`, `Basic ${TOKEN}`, TOKEN, 'Bearer ']) {
      const response = await t.app.inject({ method: 'GET', url: '/metrics', headers: authorization === undefined ? {} : { authorization } });
      expect(response.statusCode, authorization).toBe(401);
      expect(response.headers['www-authenticate']).toBe('Bearer');
      expect(response.json()).toEqual({ statusCode: 401, error: 'Unauthorized', message: METRICS_UNAUTHORIZED_MESSAGE });
    }
  });

  it('answers the Prometheus text format with the right token, with the process figures', async () => {
    const response = await ctx.t.app.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/plain; version=0.0.4; charset=utf-8');
    expect(response.headers['cache-control']).toBe('no-store');
    const samples = parsePrometheusText(response.body);
    for (const name of ['process_resident_memory_bytes', 'nodejs_heap_size_used_bytes', 'nodejs_eventloop_lag_seconds', 'flotte_db_pool_size', 'flotte_data_dir_free_bytes']) {
      expect(samples.some((sample) => sample.name === name), name).toBe(true);
    }
    expect(response.body).toContain('# TYPE nodejs_gc_duration_seconds histogram');
    expect(valueOf(samples, 'flotte_db_pool_size')).toBe(onPostgres ? 4 : 1);
    expect(valueOf(samples, 'flotte_data_dir_free_bytes')).toBeGreaterThan(0);
  });

  it('moves the counter and the histogram of the route template, the statement and the page cache', async () => {
    const { t, user } = ctx;
    const labels = { method: 'GET', route: '/api/driver', status_code: '200' };
    const before = await scrape(t);
    const first = await t.as(user, { method: 'GET', url: '/api/driver?limit=10' });
    expect(first.statusCode).toBe(200);
    const again = await t.as(user, { method: 'GET', url: '/api/driver?limit=10' });
    expect(again.statusCode).toBe(200);
    const after = await scrape(t);
    const delta = (name: string, l: Record<string, string> = {}) => valueOf(after, name, l) - valueOf(before, name, l);
    expect(delta('flotte_http_requests_total', labels)).toBe(2);
    expect(delta('flotte_http_request_duration_seconds_count', labels)).toBe(2);
    expect(delta('flotte_http_request_duration_seconds_sum', labels)).toBeGreaterThan(0);
    expect(delta('flotte_http_request_duration_seconds_bucket', { ...labels, le: '+Inf' })).toBe(2);
    // The page was computed once (a miss), then served while the drivers did not move (a hit):
    // its statement ran once, its rows' files included (list-kit pageColumns: one statement).
    expect(delta('flotte_db_statement_duration_seconds_count', { statement: 'drivers_list' })).toBe(1);
    expect(delta('flotte_page_cache_misses_total')).toBe(1);
    expect(delta('flotte_page_cache_hits_total')).toBe(1);
    expect(valueOf(after, 'flotte_page_cache_entries')).toBeGreaterThanOrEqual(1);
    expect(valueOf(after, 'flotte_page_cache_bytes')).toBeGreaterThan(0);
    // Statements outside the named families, and the scrape itself, under their own labels.
    expect(delta('flotte_db_statement_duration_seconds_count', { statement: 'unnamed' })).toBeGreaterThan(0);
    expect(valueOf(after, 'flotte_http_requests_total', { method: 'GET', route: '/metrics', status_code: '200' })).toBeGreaterThan(0);
  });

  it('adds at most a handful of series for 1 000 requests to unknown ids and unknown URLs, and never writes them', async () => {
    const { t, user } = ctx;
    const before = seriesOf(await scrape(t));
    const sent: string[] = [];
    for (let i = 0; i < 500; i++) {
      const id = randomUUID();
      const path = `/${Math.random().toString(36).slice(2)}/${randomUUID()}`;
      sent.push(id, path);
      expect((await t.as(user, { method: 'GET', url: `/api/driver/${id}` })).statusCode).toBe(404);
      expect((await t.app.inject({ method: i % 2 ? 'GET' : 'POST', url: i % 3 ? `/api${path}` : path })).statusCode).toBe(404);
    }
    const body = (await t.app.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } })).body;
    const after = seriesOf(parsePrometheusText(body));
    const added = [...after].filter((series) => !before.has(series));
    // Three label sets, each in the counter and the histogram: the id and the URL are in none.
    const labelSets = new Set(added.map((series) => series.replace(/^flotte_http_request(s_total|_duration_seconds)/, '')));
    expect(added.length, added.join('\n')).toBe(2 * labelSets.size);
    expect([...labelSets].sort()).toEqual([
      '{"method":"GET","route":"/api/driver/:uuid","status_code":"404"}',
      '{"method":"GET","route":"unmatched","status_code":"404"}',
      '{"method":"POST","route":"unmatched","status_code":"404"}',
    ]);
    for (const value of sent.slice(0, 50)) expect(body).not.toContain(value);
    expect(body).not.toContain(ctx.org);
  });

  it('counts failed tokens against the address as failed logins: 429 beyond the limit, even with the right token', async () => {
    const { t } = ctx;
    // An address of its own: the limit it reaches stays with it.
    const remoteAddress = '203.0.113.7';
    const statuses: number[] = [];
    for (let i = 0; i < 31; i++) {
      statuses.push((await t.app.inject({ method: 'GET', url: '/metrics', remoteAddress, headers: { authorization: `Bearer mauvais-jeton-${i}` } })).statusCode);
    }
    expect(statuses.slice(0, 30)).toEqual(Array(30).fill(401));
    expect(statuses[30]).toBe(429);
    const refused = await t.app.inject({ method: 'GET', url: '/metrics', remoteAddress, headers: { authorization: `Bearer ${TOKEN}` } });
    expect(refused.statusCode).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(refused.json().message).toMatch(/^Trop de tentatives depuis cette adresse\. Réessayez dans \d+ secondes\.$/);
    // A login from that address is refused too: it is the same budget.
    const login = await t.app.inject({ method: 'POST', url: '/api/auth/login', remoteAddress, payload: { email: 'gestion@metrique.fr', password: 'faux-mot-de-passe' } });
    expect(login.statusCode).toBe(429);
    // Another address is served.
    expect((await t.app.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } })).statusCode).toBe(200);
  });

  it('counts the rows of a committed import by register and result', async () => {
    const { t, user } = ctx;
    const before = await scrape(t);
    const file = readFileSync(join(import.meta.dirname, '../../../test/fixtures/import/conducteurs-excel-fr.csv'));
    const preview = await t.as(user, { method: 'POST', url: '/api/import/driver/preview', ...multipartFile('conducteurs.csv', file) });
    expect(preview.statusCode, preview.body).toBe(200);
    const { importId, suggestedMapping } = preview.json<{ importId: string; suggestedMapping: object }>();
    const commit = await t.as(user, { method: 'POST', url: `/api/import/${importId}/commit`, payload: { mapping: suggestedMapping } });
    expect(commit.statusCode, commit.body).toBe(200);
    const counts = commit.json<{ created: number; skipped: number }>();
    const after = await scrape(t);
    const delta = (result: string) => valueOf(after, 'flotte_import_rows_total', { entity: 'driver', result }) - valueOf(before, 'flotte_import_rows_total', { entity: 'driver', result });
    expect(counts.created).toBeGreaterThan(0);
    expect(delta('created')).toBe(counts.created);
    expect(delta('skipped')).toBe(counts.skipped);
  });
});

describe('database waits and timeouts', () => {
  let ctx: MetricsApp;
  beforeAll(async () => {
    ctx = await metricsApp({ AUTH_CONTEXT_TTL_MS: '0' }, { maxWaitMs: 150, statementTimeoutMs: onPostgres ? 300 : undefined });
  });
  afterAll(() => ctx.t.close());

  it('counts an operation that waited too long for its turn (503), and shows who waits meanwhile', async () => {
    const { t, org, user } = ctx;
    const before = await scrape(t);
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let held = 0;
    // Every turn taken: PGlite has one; on PostgreSQL one organization holds half the pool, the system the rest.
    const holders = Array.from({ length: onPostgres ? 2 : 1 }, () => withTenant(t.database.db, org, async () => (held++, await released)));
    const others = onPostgres ? Array.from({ length: 2 }, () => withTenant(t.database.db, randomUUID(), async () => (held++, await released))) : [];
    try {
      await eventually(async () => held === holders.length + others.length, 5_000);
      const stats = t.database.stats();
      expect(stats.turnsRunning).toBe(holders.length + others.length);
      const response = await t.as(user, { method: 'GET', url: '/api/driver' });
      expect(response.statusCode).toBe(503);
    } finally {
      release();
      await Promise.all([...holders, ...others]);
    }
    const after = await scrape(t);
    expect(valueOf(after, 'flotte_db_acquire_timeouts_total', { wait: 'turn' }) - valueOf(before, 'flotte_db_acquire_timeouts_total', { wait: 'turn' })).toBeGreaterThanOrEqual(1);
    expect(valueOf(after, 'flotte_http_requests_total', { method: 'GET', route: '/api/driver', status_code: '503' })).toBe(1);
  });

  it.runIf(onPostgres)('counts a statement cancelled by the statement timeout under its family', async () => {
    const { t, user } = ctx;
    const locker = new pg.Client({ connectionString: (t.database.pool!.options as { connectionString: string }).connectionString });
    await locker.connect();
    try {
      const before = await scrape(t);
      await locker.query('BEGIN');
      await locker.query('LOCK TABLE drivers IN ACCESS EXCLUSIVE MODE');
      const response = await t.as(user, { method: 'GET', url: '/api/driver?search=conducteur' });
      expect(response.statusCode).toBe(503);
      await locker.query('ROLLBACK');
      const after = await scrape(t);
      const family = { statement: 'drivers_list' };
      expect(valueOf(after, 'flotte_db_statement_timeouts_total', family) - valueOf(before, 'flotte_db_statement_timeouts_total', family)).toBe(1);
    } finally {
      await locker.end();
    }
  });

  it('counts a statement the database cancelled for its timeout (57014), on either database', async () => {
    // PGlite has no statement timeout of its own: the statement raises the same SQLSTATE.
    const { t, org } = ctx;
    const before = await scrape(t);
    await expect(
      withTenant(t.database.db, org, (tx) => tx.execute(sql`DO $$ BEGIN RAISE EXCEPTION 'canceling statement due to statement timeout' USING ERRCODE = '57014'; END $$`)),
    ).rejects.toThrow();
    const after = await scrape(t);
    const unnamed = { statement: 'unnamed' };
    expect(valueOf(after, 'flotte_db_statement_timeouts_total', unnamed) - valueOf(before, 'flotte_db_statement_timeouts_total', unnamed)).toBe(1);
  });
});

describe('background jobs and e-mails', () => {
  let t: TestContext;
  let org: string;
  beforeAll(async () => {
    t = await createTestApp({ METRICS_TOKEN: TOKEN, JOBS_WORKER: 'true', JOBS_POLL_INTERVAL_SECONDS: '0.5' });
    org = await t.seed(async (tx) => (await createOrganization(tx, { title: 'Transports Courrier' })).uuid);
  });
  afterAll(() => t.close());

  it('counts an e-mail sent and the delivery job that sent it, and the queue empties', async () => {
    const before = await scrape(t);
    await withTenant(t.database.db, org, (tx) =>
      t.app.mail.queue(tx, {
        template: 'vehicle-movement',
        to: 'production@courtier.exemple.fr',
        data: {
          organizationTitle: 'Transports Courrier',
          intermediaryContactName: 'Paul Lefèvre',
          senderName: 'Jeanne Roux',
          movements: [{ movement: 'exit', immatriculation: 'AB-123-CD', brand: 'Renault', model: 'Master', category: null, date: '2026-03-12' }],
        },
        baseUrl: 'https://flotte.exemple.fr',
      }),
    );
    let after = before;
    await eventually(async () => {
      after = await scrape(t);
      return valueOf(after, 'flotte_mail_total', { outcome: 'sent' }) > valueOf(before, 'flotte_mail_total', { outcome: 'sent' });
    }, 15_000);
    expect(valueOf(after, 'flotte_mail_total', { outcome: 'sent' }) - valueOf(before, 'flotte_mail_total', { outcome: 'sent' })).toBe(1);
    await eventually(async () => {
      after = await scrape(t);
      return valueOf(after, 'flotte_jobs_total', { kind: 'mail.deliver', outcome: 'completed' }) >= 1;
    }, 5_000);
    expect(valueOf(after, 'flotte_jobs_queued', { kind: 'mail.deliver' })).toBe(0);
    expect(after.some((sample) => sample.name === 'flotte_jobs_queued' && sample.labels.kind === 'import.commit')).toBe(true);
    expect(valueOf(after, 'flotte_mail_total', { outcome: 'dead' })).toBe(0);
  });
});

describe('job outcomes', () => {
  let database: DatabaseHandle;
  let queue: JobQueue;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(async () => {
    await queue?.stop({ timeoutMs: 2_000 });
    await database?.close();
  });

  it('counts completed, retried and failed attempts by kind, and the jobs waiting', async () => {
    const metrics = createMetrics({
      database,
      pageCache: () => ({ entries: 0, bytes: 0 }),
      jobs: { running: () => queue.runningCount, waiting: () => queue.waiting() },
      // Not created yet: its file system is its parent's, never a 0 that would read as a full disk.
      dataDir: join(tmpdir(), `flotte-pas-encore-${randomUUID()}`, 'data'),
    });
    const detach = attachObservations(database.db, metrics.observations);
    let tries = 0;
    const flaky = defineJob({
      name: 'essai.instable',
      tenant: false,
      payload: z.object({}),
      retry: { limit: 1, delaySeconds: 0, backoff: false },
      handler: async () => {
        if (++tries === 1) throw new Error('premier essai raté');
      },
    });
    const broken = defineJob({
      name: 'essai.casse',
      tenant: false,
      payload: z.object({}),
      handler: async () => {
        throw new PermanentJobError('rien à faire');
      },
    });
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let started = 0;
    // One at a time, held until released: one runs, the next waits in the queue.
    const slow = defineJob({
      name: 'essai.attente',
      tenant: false,
      payload: z.object({}),
      handler: async () => {
        started++;
        await released;
      },
    });
    const noLog = { debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined };
    try {
      queue = new JobQueue(database, { logger: noLog, pollingIntervalSeconds: 0.5, worker: true });
      queue.register(flaky, broken, slow);
      await queue.start();
      await queue.send(flaky, {});
      await queue.send(broken, {});
      await queue.send(slow, {});
      await queue.send(slow, {});
      // Not due for an hour: not counted as waiting.
      await queue.send(slow, {}, { startAfter: 3600 });
      let samples: Sample[] = [];
      const of = (kind: string, outcome: string) => valueOf(samples, 'flotte_jobs_total', { kind, outcome });
      await eventually(async () => {
        samples = parsePrometheusText(await metrics.render());
        // The attempt's failure is counted as it ends; its dead letter is written by the queue just
        // after: both are waited for.
        return (
          of('essai.instable', 'completed') === 1 &&
          of('essai.casse', 'failed') === 1 &&
          valueOf(samples, 'flotte_jobs_dead_letters', { kind: 'essai.casse' }) === 1 &&
          started === 1
        );
      }, 20_000);
      expect(of('essai.instable', 'retried')).toBe(1);
      expect(of('essai.casse', 'retried')).toBe(0);
      expect(valueOf(samples, 'flotte_jobs_queued', { kind: 'essai.attente' })).toBe(1);
      expect(valueOf(samples, 'flotte_jobs_running')).toBe(1);
      expect(valueOf(samples, 'flotte_data_dir_free_bytes')).toBeGreaterThan(0);
      expect(valueOf(samples, 'flotte_data_dir_size_bytes')).toBeGreaterThanOrEqual(valueOf(samples, 'flotte_data_dir_free_bytes'));
      expect(valueOf(samples, 'flotte_jobs_dead_letters', { kind: 'essai.casse' })).toBe(1);
      expect(valueOf(samples, 'flotte_jobs_queued', { kind: 'essai.casse' })).toBe(0);
      release();
      await eventually(async () => {
        samples = parsePrometheusText(await metrics.render());
        return of('essai.attente', 'completed') === 2;
      }, 20_000);
      expect(valueOf(samples, 'flotte_jobs_queued', { kind: 'essai.attente' })).toBe(0);
      expect(valueOf(samples, 'flotte_jobs_running')).toBe(0);
    } finally {
      release();
      detach();
    }
  });
});
