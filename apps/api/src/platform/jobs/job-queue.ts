import type { PGlite } from '@electric-sql/pglite';
import PgBoss from 'pg-boss';
import { runAsNoOne } from '../../db/actor.js';
import type { DatabaseHandle } from '../../db/client.js';
import { holdsTurn } from '../../db/fair-share.js';
import { observationsOf } from '../metrics/observations.js';
import { afterCommit, type ReadTx, readSystem, readTenant, runWithoutCommitMark, withSystem, withTenant, type WriteTx } from '../../db/scope.js';
import { type JobKind, JobPayloadError, PermanentJobError, payloadIssues, type SendOptions } from './define-job.js';
import { PgliteQueueSql, PostgresQueueSql, QUEUE_SCHEMA, sendInTransaction, type TrackedQueueSql } from './queue-sql.js';

/**
 * The background job queue (docs/decisions/021-job-queue.md): pg-boss on the application's own
 * database — PostgreSQL, or the embedded PGlite through an adapter — so jobs survive a restart and
 * run once across processes. Every later feature defines its kinds with defineJob and sends them
 * here; the queue runs each in its organization's scope (row-level security as for a request).
 */

export type JobQueueLogger = {
  debug(obj: object, msg: string): void;
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
};

export type JobQueueOptions = {
  logger: JobQueueLogger;
  /** Take and run jobs in this process (JOBS_WORKER); false: only send. */
  worker?: boolean;
  /** How often an idle kind looks for work (JOBS_POLL_INTERVAL_SECONDS). */
  pollingIntervalSeconds?: number;
  /** How often expired jobs are failed (and so retried) and old ones archived, across processes. */
  maintenanceIntervalSeconds?: number;
};

/** The time zone of scheduled jobs: the daily work of a French business happens on Paris time. */
export const SCHEDULE_TIME_ZONE = 'Europe/Paris';
/** What stop() gives running jobs by default: the server exits 10 s after SIGTERM. */
export const DEFAULT_STOP_TIMEOUT_MS = 8_000;
/** How long a dead letter is kept, in created state, never worked (then archived, then dropped). */
const DEAD_LETTER_RETENTION_MINUTES = 60 * 24 * 28;
/** The schema version drizzle/0014_job_queue.sql creates (pg-boss 10.x). */
const PGBOSS_SCHEMA_VERSION = 24;

export type JobState = 'created' | 'retry' | 'active' | 'completed' | 'cancelled' | 'failed';
export type JobInfo = { id: string; state: JobState; attempt: number; payload: unknown; output: unknown };
export type DeadLetter = { id: string; payload: unknown; error: unknown; createdAt: Date };

type RunningJob = { controller: AbortController };

/** An embedded database recovers the jobs a killed process left active once per open. */
const recoveredPglites = new WeakSet<PGlite>();

/**
 * On the embedded database, each kind's own poll is only a backstop: one read for all kinds
 * (`sweep`) wakes the kinds with work due, every polling interval. PGlite runs one statement at a
 * time for the whole process, and each kind's poll is a writing transaction: eleven of them every
 * 2 s queued ahead of the requests (docs/performance.md, « 2026-11-27 »).
 */
const EMBEDDED_KIND_POLL_SECONDS = 60;

function failureOutput(error: unknown): { name: string; message: string } {
  // Name and message only: a stack trace is not job machinery.
  const name = error instanceof Error ? error.name : 'Error';
  const message = error instanceof Error ? error.message : String(error);
  return { name, message: message.slice(0, 500) };
}

/** A rejection carrying only what failureOutput keeps (pg-boss stores what the handler throws). */
class JobFailed extends Error {
  constructor(output: { name: string; message: string }) {
    super(output.message);
    this.name = output.name;
    Object.defineProperty(this, 'stack', { value: undefined });
  }
}

export class JobQueue {
  private readonly kinds = new Map<string, JobKind<unknown>>();
  private readonly workerIds = new Map<string, string[]>();
  private readonly running = new Set<RunningJob>();
  private sql!: TrackedQueueSql;
  private boss!: PgBoss;
  private readonly worker: boolean;
  private readonly pollingIntervalSeconds: number;
  private starting: Promise<void> | undefined;
  private stopping: Promise<void> | undefined;
  private started = false;
  private sweepTimer: NodeJS.Timeout | undefined;
  private sweeping = false;

  constructor(
    private readonly database: DatabaseHandle,
    private readonly options: JobQueueOptions,
  ) {
    this.worker = options.worker ?? true;
    this.pollingIntervalSeconds = options.pollingIntervalSeconds ?? 2;
  }

  /** The queue's connection, opened at start (building the app alone opens nothing). */
  private openSql(): TrackedQueueSql {
    const { database, options } = this;
    if (database.kind === 'pglite') return new PgliteQueueSql(database.pglite!, database.db, options.logger);
    const connectionString = database.pool?.options.connectionString;
    if (!connectionString) throw new Error('JobQueue: the PostgreSQL handle has no connection string');
    return new PostgresQueueSql(connectionString, options.logger, { silence: database.silence });
  }

  /** Adds kinds; before start() only (their queues are created at start). */
  register(...kinds: JobKind<unknown>[]): this {
    if (this.starting) throw new Error('JobQueue.register: the queue has already started');
    for (const kind of kinds) {
      if (this.kinds.has(kind.name)) throw new Error(`JobQueue.register: ${kind.name} is registered twice`);
      this.kinds.set(kind.name, kind);
    }
    return this;
  }

  /** The registered kinds' names. */
  get kindNames(): string[] {
    return [...this.kinds.keys()];
  }

  /** A registered kind by its name (to send it from where it was not declared: support, tests). */
  kind(name: string): JobKind<unknown> | undefined {
    return this.kinds.get(name);
  }

  /** The schedules the queue holds (name and cron, Paris time), as every process shares them. */
  async schedules(): Promise<{ name: string; cron: string }[]> {
    if (!this.boss) throw new Error('JobQueue.schedules: the queue has not started');
    const schedules = await this.boss.getSchedules();
    return schedules.map((schedule) => ({ name: schedule.name, cron: schedule.cron })).sort((a, b) => a.name.localeCompare(b.name));
  }

  start(): Promise<void> {
    this.starting ??= this.doStart();
    return this.starting;
  }

  private async doStart() {
    const scheduled = [...this.kinds.values()].filter((kind) => kind.schedule !== undefined);
    // The embedded database has this process only (decision 009): every job is sent here, so a
    // sweep of the whole queue finds all the work a kind's own poll would (decision 021's addition).
    const embedded = this.database.kind === 'pglite';
    const kindPollSeconds = embedded ? Math.max(this.pollingIntervalSeconds, EMBEDDED_KIND_POLL_SECONDS) : this.pollingIntervalSeconds;
    this.sql = this.openSql();
    this.boss = new PgBoss({
      db: this.sql,
      schema: QUEUE_SCHEMA,
      // The schema is a Drizzle migration (drizzle/0014_job_queue.sql): pg-boss only checks its version.
      migrate: false,
      // Maintenance fails expired jobs (so a killed process's job is retried) and archives old ones.
      supervise: this.worker,
      // The timekeeper (a cron check every 30 s, one send per minute across processes) only when a kind is scheduled.
      schedule: this.worker && scheduled.length > 0,
      pollingIntervalSeconds: this.pollingIntervalSeconds,
      maintenanceIntervalSeconds: this.options.maintenanceIntervalSeconds ?? 60,
      archiveCompletedAfterSeconds: 12 * 3600,
      archiveFailedAfterSeconds: 7 * 24 * 3600,
      deleteAfterDays: 7,
    });
    this.boss.on('error', (error: Error & { queue?: string }) => {
      this.options.logger.warn({ err: error, queue: error.queue }, 'file de tâches : erreur');
    });
    // The schema comes from a migration; a pg-boss whose schema version differs would misread it.
    const version = (await this.boss.isInstalled()) ? Number(await this.boss.schemaVersion()) : null;
    if (version !== PGBOSS_SCHEMA_VERSION) {
      throw new Error(`La file de tâches (schéma ${QUEUE_SCHEMA}, version ${version ?? 'absente'}) ne correspond pas à pg-boss (version ${PGBOSS_SCHEMA_VERSION}) : une migration manque.`);
    }
    for (const kind of this.kinds.values()) {
      await this.boss.createQueue(kind.deadLetterName, { name: kind.deadLetterName, retentionMinutes: DEAD_LETTER_RETENTION_MINUTES });
      const settings = {
        name: kind.name,
        retryLimit: kind.retry.limit,
        retryDelay: kind.retry.delaySeconds,
        retryBackoff: kind.retry.backoff,
        expireInSeconds: kind.timeoutSeconds,
        deadLetter: kind.deadLetterName,
      };
      await this.boss.createQueue(kind.name, settings);
      // A queue made by an earlier version keeps its settings otherwise.
      await this.boss.updateQueue(kind.name, settings);
    }
    // Before start: the timekeeper checks the schedules as soon as it starts.
    if (this.worker) await this.applySchedules(scheduled);
    await this.boss.start();
    if (this.worker) {
      await this.recoverEmbedded();
      for (const kind of this.kinds.values()) {
        const ids: string[] = [];
        for (let n = 0; n < kind.concurrency; n++) {
          const id = await this.boss.work<unknown>(
            kind.name,
            { batchSize: 1, includeMetadata: true, pollingIntervalSeconds: kindPollSeconds },
            async ([job]) => {
              try {
                if (job) await this.runJob(kind, job);
              } finally {
                // Work waiting: look again at once rather than after the polling interval.
                const self = this.workerIds.get(kind.name)?.[n];
                if (self && !this.stopping) this.boss.notifyWorker(self);
              }
            },
          );
          ids.push(id);
        }
        this.workerIds.set(kind.name, ids);
      }
      if (embedded) {
        this.sweepTimer = setInterval(() => void this.sweep(), this.pollingIntervalSeconds * 1000);
        this.sweepTimer.unref();
      }
    }
    this.started = true;
    this.options.logger.info({ kinds: this.kindNames, worker: this.worker }, 'file de tâches démarrée');
  }

  /**
   * The embedded database is locked to one process (decision 009): a job still active when it
   * opens was left by a process that died. It is failed at once, so retried now rather than
   * after its expiry. On PostgreSQL other processes may be running it: expiry decides.
   */
  private async recoverEmbedded() {
    const client = this.database.pglite;
    if (!client || recoveredPglites.has(client)) return;
    recoveredPglites.add(client);
    const { rows } = await this.sql.executeSql(`SELECT name, array_agg(id::text) AS ids FROM ${QUEUE_SCHEMA}.job WHERE state = 'active' GROUP BY name`);
    for (const row of rows as { name: string; ids: string[] }[]) {
      for (const id of row.ids) await this.boss.fail(row.name, id, { name: 'Interrupted', message: 'processus arrêté pendant la tâche' });
      this.options.logger.warn({ job: row.name, count: row.ids.length }, 'tâches interrompues par un arrêt brutal : reprises');
    }
  }

  /** pg-boss keeps schedules in its table, shared by processes: the registered ones, nothing else. */
  private async applySchedules(scheduled: JobKind<unknown>[]) {
    for (const kind of scheduled) await this.boss.schedule(kind.name, kind.schedule!, {}, { tz: SCHEDULE_TIME_ZONE });
    const names = new Set(scheduled.map((kind) => kind.name));
    for (const existing of await this.boss.getSchedules()) if (!names.has(existing.name)) await this.boss.unschedule(existing.name);
  }

  private async runJob(kind: JobKind<unknown>, job: PgBoss.JobWithMetadata<unknown>) {
    const attempt = job.retryCount + 1;
    const log = { job: kind.name, jobId: job.id, attempt };
    if (this.stopping) throw new JobFailed({ name: 'Interrupted', message: 'arrêt du processus avant le début de la tâche' });
    const controller = new AbortController();
    const entry = { controller };
    this.running.add(entry);
    const timer = setTimeout(() => controller.abort(new Error(`délai dépassé (${kind.timeoutSeconds} s)`)), Math.max(1, kind.timeoutSeconds * 1000 - 50));
    try {
      const parsed = kind.schema.safeParse(job.data);
      if (!parsed.success) throw new PermanentJobError(new JobPayloadError(kind.name, payloadIssues(parsed.error)).message);
      const context = { payload: parsed.data, jobId: job.id, attempt, signal: controller.signal, send: this.send.bind(this), ...this.scopeOf(kind, parsed.data) };
      // Without the actor of whichever request woke the worker: a job writes as the platform (decision 041),
      // and its transactions carry nothing of that request's Idempotency-Key (decision 050).
      const handled = runAsNoOne(() => runWithoutCommitMark(() => kind.run(context)));
      // A handler that ignores its signal is left behind: its job is failed (and retried) now.
      handled.catch(() => undefined);
      await new Promise<void>((resolve, reject) => {
        controller.signal.addEventListener('abort', () => reject(controller.signal.reason as Error), { once: true });
        handled.then(resolve, reject);
      });
      this.options.logger.debug(log, 'tâche terminée');
      observationsOf(this.database.db).job(kind.name, 'completed');
    } catch (error) {
      const output = failureOutput(error);
      const permanent = error instanceof PermanentJobError;
      if (permanent) {
        // No retry can fix it: the job goes to its dead letter now (if this fails, it is only retried).
        await this.sql
          .executeSql(`UPDATE ${QUEUE_SCHEMA}.job SET retry_limit = retry_count WHERE name = $1 AND id = $2`, [kind.name, job.id])
          .catch((err: unknown) => this.options.logger.warn({ ...log, err }, 'tâche en échec définitif non marquée : elle sera réessayée'));
      }
      const final = permanent || job.retryCount >= job.retryLimit;
      if (final) this.options.logger.error({ ...log, error: output.message }, 'tâche en échec définitif : lettre morte');
      else this.options.logger.warn({ ...log, error: output.message }, 'tâche en échec : nouvel essai prévu');
      observationsOf(this.database.db).job(kind.name, final ? 'failed' : 'retried');
      throw new JobFailed(output);
    } finally {
      clearTimeout(timer);
      this.running.delete(entry);
    }
  }

  /** What a handler works with: its organization's scope (tenant job) or the platform's. */
  private scopeOf(kind: JobKind<unknown>, payload: unknown) {
    const db = this.database.db;
    if (kind.tenant) {
      const { organizationUuid } = payload as { organizationUuid: string };
      return {
        tenant: {
          organizationUuid,
          write: <T>(fn: (tx: WriteTx) => Promise<T>) => withTenant(db, organizationUuid, fn),
          read: <T>(fn: (tx: ReadTx) => Promise<T>) => readTenant(db, organizationUuid, fn),
        },
      };
    }
    return { system: { write: <T>(fn: (tx: WriteTx) => Promise<T>) => withSystem(db, fn), read: <T>(fn: (tx: ReadTx) => Promise<T>) => readSystem(db, fn) } };
  }

  /**
   * Queues a job. The payload is checked against the kind's schema (JobPayloadError). With `tx`
   * the job is part of the caller's transaction; without, it is queued at once — which is refused
   * inside a database scope, where it would escape the transaction (and wait for it on PGlite).
   * Returns the job's id, or null when `singleton` already has a job in its slot.
   */
  async send<P>(kind: JobKind<P>, payload: P, options: SendOptions = {}): Promise<string | null> {
    if (this.kinds.get(kind.name) !== (kind as unknown)) throw new Error(`JobQueue.send: ${kind.name} is not registered in this queue`);
    const parsed = kind.schema.safeParse(payload);
    if (!parsed.success) throw new JobPayloadError(kind.name, payloadIssues(parsed.error));
    if (!this.starting) throw new Error('JobQueue.send: the queue is not started');
    await this.starting;
    const sendOptions = {
      ...(options.startAfter === undefined ? {} : { startAfter: options.startAfter }),
      ...(options.singleton === undefined ? {} : { singletonKey: options.singleton.key, singletonSeconds: options.singleton.seconds }),
    };
    const data = parsed.data as object;
    if (options.tx) {
      const organizationUuid = kind.tenant ? (data as { organizationUuid: string }).organizationUuid : undefined;
      const id = await sendInTransaction(options.tx, organizationUuid, (db) => this.boss.send(kind.name, data, { ...sendOptions, db }));
      // Visible once the transaction commits: the kind's worker here looks then, not at its next poll.
      if (id && !options.startAfter) afterCommit(options.tx, () => this.wake(kind.name));
      return id;
    }
    if (holdsTurn()) throw new Error(`JobQueue.send(${kind.name}) inside a database scope: pass its transaction as { tx }`);
    const id = await this.boss.send(kind.name, data, sendOptions);
    // In this process, the kind's worker looks at once.
    if (id && !options.startAfter) this.wake(kind.name);
    return id;
  }

  /**
   * The embedded database's poll: one read of the kinds that have a job due (created, or failed
   * and due for its retry; sent by the timekeeper, or to start later), whose workers then look.
   */
  private async sweep() {
    if (this.sweeping || this.stopping) return;
    this.sweeping = true;
    try {
      const { rows } = await this.sql.executeSql(
        `SELECT DISTINCT name FROM ${QUEUE_SCHEMA}.job WHERE name = ANY($1::text[]) AND state < 'active' AND start_after < now()`,
        [this.kindNames],
      );
      for (const row of rows as { name: string }[]) this.wake(row.name);
    } catch (error) {
      this.options.logger.warn({ err: error }, 'file de tâches : recherche des tâches dues en échec');
    } finally {
      this.sweeping = false;
    }
  }

  /** The kind's workers in this process look for work now rather than at their next poll. */
  private wake(name: string) {
    if (this.stopping) return;
    for (const worker of this.workerIds.get(name) ?? []) this.boss.notifyWorker(worker);
  }

  /**
   * For /api/ready: started, not stopping, and for a worker (which polls every few seconds) the
   * queue's last statement succeeded. A process that only sends has no statement to judge by.
   */
  isReady(): boolean {
    return this.started && !this.stopping && (!this.worker || this.sql?.isHealthy === true);
  }

  /** Jobs running in this process now (the metrics' gauge). */
  get runningCount(): number {
    return this.running.size;
  }

  /**
   * Per registered kind, the jobs due and not taken yet (created, or failed and due for their
   * retry; not those set to start later) and the dead letters kept, for every process: one grouped
   * read of the queue's table (the metrics).
   */
  async waiting(): Promise<{ kind: string; queued: number; deadLetters: number }[]> {
    if (!this.started) return [];
    const kinds = [...this.kinds.values()];
    const { rows } = await this.sql.executeSql(
      `SELECT name, count(*) FILTER (WHERE start_after <= now())::int AS due, count(*)::int AS n FROM ${QUEUE_SCHEMA}.job
       WHERE state IN ('created', 'retry') AND name = ANY($1::text[]) GROUP BY name`,
      [kinds.flatMap((kind) => [kind.name, kind.deadLetterName])],
    );
    const counts = new Map((rows as { name: string; due: number; n: number }[]).map((row) => [row.name, row]));
    return kinds.map((kind) => ({
      kind: kind.name,
      queued: Number(counts.get(kind.name)?.due ?? 0),
      // A dead letter is kept in created state and never worked: all of them count.
      deadLetters: Number(counts.get(kind.deadLetterName)?.n ?? 0),
    }));
  }

  /** One job, archived ones included (tests, support). */
  async job(kind: JobKind<unknown>, id: string): Promise<JobInfo | null> {
    const job = await this.boss.getJobById<unknown>(kind.name, id, { includeArchive: true });
    if (!job) return null;
    return { id: job.id, state: job.state, attempt: job.retryCount + 1, payload: job.data, output: job.output };
  }

  /** The jobs of a kind that failed for good, newest first (support, tests). */
  async deadLetters(kind: JobKind<unknown>): Promise<DeadLetter[]> {
    const { rows } = await this.sql.executeSql(
      `SELECT id::text, data, output, created_on FROM ${QUEUE_SCHEMA}.job WHERE name = $1 ORDER BY created_on DESC, id LIMIT 1000`,
      [kind.deadLetterName],
    );
    return (rows as { id: string; data: unknown; output: unknown; created_on: Date | string }[]).map((row) => ({
      id: row.id,
      payload: row.data,
      error: row.output,
      createdAt: new Date(row.created_on),
    }));
  }

  /**
   * Stops taking jobs at once, lets the running ones finish for up to timeoutMs, then aborts their
   * signal and fails them — retried later, by this process after a restart or by another one.
   */
  stop(options: { timeoutMs?: number } = {}): Promise<void> {
    this.stopping ??= this.doStop(options.timeoutMs ?? DEFAULT_STOP_TIMEOUT_MS);
    return this.stopping;
  }

  private async doStop(timeoutMs: number) {
    if (this.starting) await this.starting.catch(() => undefined);
    clearInterval(this.sweepTimer);
    const abortAt = setTimeout(
      () => {
        for (const job of this.running) job.controller.abort(new Error('arrêt du processus : tâche remise en file'));
      },
      Math.max(0, timeoutMs - 1_000),
    );
    try {
      await this.boss?.stop({ graceful: true, close: false, wait: true, timeout: Math.max(1_000, timeoutMs - 500) });
    } finally {
      clearTimeout(abortAt);
      await this.sql?.close();
    }
    this.options.logger.info({}, 'file de tâches arrêtée');
  }
}
