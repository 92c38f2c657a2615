import { statfs } from 'node:fs/promises';
import path from 'node:path';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { DatabaseStats } from '../../db/client.js';
import type { Observations } from './observations.js';

/**
 * The application's metrics in the Prometheus text format (decision 045, docs/operations.md
 * « Métriques »). One registry per app instance, never prom-client's global one: the tests build
 * many apps in one process, and each must count only its own requests.
 *
 * Everything is named `flotte_…` except the process's own figures (prom-client's defaults:
 * `process_…`, `nodejs_…`). Labels take only values the code defines — a route's template, a
 * statement's family, a job's kind — so the number of series is bounded by the code, whatever
 * the clients send.
 */

/** What the metrics read when scraped (gauges): each part says how it is now. */
export type MetricsSources = {
  database: { stats(): DatabaseStats };
  /** The page cache of the app's database (lib/page-cache.ts). */
  pageCache: () => { entries: number; bytes: number };
  /** The job queue: jobs waiting per kind (a database read, bounded in time) and jobs running in this process. */
  jobs: { running(): number; waiting(): Promise<readonly { kind: string; queued: number; deadLetters: number }[]> };
  /** DATA_DIR: its file system's free and total bytes. */
  dataDir: string;
};

export type Metrics = {
  /** `text/plain; version=0.0.4; charset=utf-8` */
  readonly contentType: string;
  /** The registry as Prometheus reads it. */
  render(): Promise<string>;
  /** One HTTP request answered. `route` is the template (`/api/driver/:uuid`), or `unmatched`. */
  request(method: string, route: string, statusCode: number, seconds: number): void;
  /** What the database, the page cache, the jobs, the e-mails and the imports report (platform/metrics/observations.ts). */
  readonly observations: Observations;
};

/** HTTP methods kept as they are; any other (a client may send anything) is `other`. */
const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

/** Seconds. An API answer takes milliseconds; a report or an export, seconds; a 503 waits 5 s for its turn. */
const REQUEST_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
const STATEMENT_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 15];
/** How long a scrape waits for the queue's depth before answering without it. */
const QUEUE_READ_TIMEOUT_MS = 2_000;

export function createMetrics(sources: MetricsSources): Metrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });

  const requests = new Counter({
    name: 'flotte_http_requests_total',
    help: 'Requêtes HTTP répondues, par méthode, modèle de route (unmatched : aucune route) et code de statut.',
    labelNames: ['method', 'route', 'status_code'] as const,
    registers: [registry],
  });
  const requestDuration = new Histogram({
    name: 'flotte_http_request_duration_seconds',
    help: 'Durée des requêtes HTTP (de la réception à la réponse), par méthode, modèle de route et code de statut.',
    labelNames: ['method', 'route', 'status_code'] as const,
    buckets: REQUEST_BUCKETS,
    registers: [registry],
  });

  const { database } = sources;
  const poolGauge = (name: string, help: string, read: (stats: DatabaseStats) => number) =>
    new Gauge({
      name,
      help,
      registers: [registry],
      collect() {
        this.set(read(database.stats()));
      },
    });
  poolGauge('flotte_db_pool_size', 'Connexions que le pool peut ouvrir (base embarquée : 1).', (s) => s.max);
  poolGauge('flotte_db_pool_open_connections', 'Connexions ouvertes du pool.', (s) => s.open);
  poolGauge('flotte_db_pool_idle_connections', 'Connexions ouvertes et libres.', (s) => s.idle);
  poolGauge('flotte_db_pool_waiting_clients', 'Demandes qui attendent une connexion (base embarquée : son tour).', (s) => s.waiting);
  poolGauge('flotte_db_turns_running', 'Opérations en base qui tiennent leur tour du partage équitable (décision 011).', (s) => s.turnsRunning);
  poolGauge('flotte_db_turns_waiting', "Opérations en base qui attendent leur tour du partage équitable.", (s) => s.turnsWaiting);
  const acquireTimeouts = new Counter({
    name: 'flotte_db_acquire_timeouts_total',
    help: "Opérations en base abandonnées faute de tour (wait=turn) ou de connexion (wait=connection) à temps : réponses 503.",
    labelNames: ['wait'] as const,
    registers: [registry],
  });
  const statementTimeouts = new Counter({
    name: 'flotte_db_statement_timeouts_total',
    help: 'Instructions annulées par le délai maximal des instructions (statement_timeout), par famille.',
    labelNames: ['statement'] as const,
    registers: [registry],
  });
  const statementDuration = new Histogram({
    name: 'flotte_db_statement_duration_seconds',
    help: 'Durée des instructions SQL, par famille d’instruction préparée (unnamed : les autres), jamais par valeur.',
    labelNames: ['statement'] as const,
    buckets: STATEMENT_BUCKETS,
    registers: [registry],
  });
  // Every family is counted from zero: a rate() over a timeout that never happened yet is 0, not absent.
  acquireTimeouts.inc({ wait: 'turn' }, 0);
  acquireTimeouts.inc({ wait: 'connection' }, 0);

  const pageCacheHits = new Counter({ name: 'flotte_page_cache_hits_total', help: 'Pages de liste servies depuis le cache de pages.', registers: [registry] });
  const pageCacheMisses = new Counter({ name: 'flotte_page_cache_misses_total', help: 'Pages de liste calculées alors que le cache aurait pu les servir.', registers: [registry] });
  const pageCacheEvictions = new Counter({ name: 'flotte_page_cache_evictions_total', help: 'Pages retirées du cache pour rester dans ses limites.', registers: [registry] });
  new Gauge({
    name: 'flotte_page_cache_bytes',
    help: 'Mémoire comptée pour les pages gardées (2 ko par ligne).',
    registers: [registry],
    collect() {
      this.set(sources.pageCache().bytes);
    },
  });
  new Gauge({
    name: 'flotte_page_cache_entries',
    help: 'Pages gardées dans le cache.',
    registers: [registry],
    collect() {
      this.set(sources.pageCache().entries);
    },
  });

  const jobs = new Counter({
    name: 'flotte_jobs_total',
    help: "Essais de tâches de fond terminés, par type et issue (completed, retried : échec réessayé, failed : échec définitif, lettre morte).",
    labelNames: ['kind', 'outcome'] as const,
    registers: [registry],
  });
  new Gauge({
    name: 'flotte_jobs_running',
    help: 'Tâches de fond en cours dans ce processus.',
    registers: [registry],
    collect() {
      this.set(sources.jobs.running());
    },
  });
  const queueGauge = (name: string, help: string, pick: (row: { queued: number; deadLetters: number }) => number) =>
    new Gauge({
      name,
      help,
      labelNames: ['kind'] as const,
      registers: [registry],
      async collect() {
        this.reset();
        // The database may be down or saturated: the scrape answers without the queue's figures.
        const rows = await withTimeout(sources.jobs.waiting(), QUEUE_READ_TIMEOUT_MS).catch(() => null);
        for (const row of rows ?? []) this.set({ kind: row.kind }, pick(row));
      },
    });
  queueGauge('flotte_jobs_queued', 'Tâches en attente (à faire ou à réessayer), par type, pour tous les processus.', (row) => row.queued);
  queueGauge('flotte_jobs_dead_letters', 'Tâches en lettre morte (échec définitif) gardées, par type.', (row) => row.deadLetters);

  const mail = new Counter({
    name: 'flotte_mail_total',
    help: "E-mails remis au serveur de messagerie (sent) ou en échec (retried : réessayé plus tard, dead : abandonné).",
    labelNames: ['outcome'] as const,
    registers: [registry],
  });
  for (const outcome of ['sent', 'retried', 'dead']) mail.inc({ outcome }, 0);
  const importRows = new Counter({
    name: 'flotte_import_rows_total',
    help: "Lignes d'imports validés, par registre et par sort (created, updated, unchanged, skipped, exited).",
    labelNames: ['entity', 'result'] as const,
    registers: [registry],
  });

  const disk = (name: string, help: string, read: (stats: { bavail: number; blocks: number; bsize: number }) => number) =>
    new Gauge({
      name,
      help,
      registers: [registry],
      async collect() {
        const stats = await fileSystemOf(sources.dataDir);
        if (stats) this.set(read(stats));
      },
    });
  disk('flotte_data_dir_free_bytes', 'Place libre (pour un utilisateur non privilégié) sur le système de fichiers de DATA_DIR.', (s) => s.bavail * s.bsize);
  disk('flotte_data_dir_size_bytes', 'Taille du système de fichiers de DATA_DIR.', (s) => s.blocks * s.bsize);

  const observations: Observations = {
    statement(name, seconds, timedOut) {
      statementDuration.observe({ statement: name }, seconds);
      if (timedOut) statementTimeouts.inc({ statement: name });
    },
    acquireTimedOut: (wait) => acquireTimeouts.inc({ wait }),
    pageCache: (result) => (result === 'hit' ? pageCacheHits : pageCacheMisses).inc(),
    pageCacheEvicted: (count) => pageCacheEvictions.inc(count),
    job: (kind, outcome) => jobs.inc({ kind, outcome }),
    mail: (outcome) => mail.inc({ outcome }),
    importRows(entity, counts) {
      for (const [result, count] of Object.entries(counts)) if (count > 0) importRows.inc({ entity, result }, count);
    },
  };

  return {
    contentType: registry.contentType,
    render: () => registry.metrics(),
    request(method, route, statusCode, seconds) {
      const labels = { method: METHODS.has(method) ? method : 'other', route, status_code: String(statusCode) };
      requests.inc(labels);
      requestDuration.observe(labels, seconds);
    },
    observations,
  };
}

/**
 * The file system DATA_DIR is (or will be) on: its nearest existing folder. A gauge without a
 * label reads 0 until set, which would look like a full disk.
 */
async function fileSystemOf(folder: string) {
  for (let current = path.resolve(folder); ; current = path.dirname(current)) {
    const stats = await statfs(current).catch(() => null);
    if (stats || current === path.dirname(current)) return stats;
  }
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
    timer.unref();
    promise.then(
      (value) => (clearTimeout(timer), resolve(value)),
      (error: unknown) => (clearTimeout(timer), reject(error as Error)),
    );
  });
}
