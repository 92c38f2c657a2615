import { z } from 'zod';
import type { ReadTx, WriteTx } from '../../db/scope.js';

/**
 * A kind of background job (docs/decisions/021-job-queue.md): a name, a zod schema for its
 * payload, how it retries, and its handler. Payloads are job machinery: identifiers (the
 * organization's uuid, record uuids), never personal data — the handler reads what it needs
 * through the scope it receives, under row-level security like a request.
 */

/** Job names: the pg-boss queue's name; `<name>.dead-letter` holds the jobs that failed for good. */
const JOB_NAME = /^[a-z][a-z0-9_-]*(\.[a-z][a-z0-9_-]*)*$/;
const MAX_NAME_LENGTH = 60;

export type RetryPolicy = {
  /** Attempts after the first one (0: no retry). */
  limit: number;
  /** Seconds before the first retry. */
  delaySeconds: number;
  /** Doubles the delay at each attempt (with jitter), as pg-boss's retryBackoff. */
  backoff: boolean;
};

export const DEFAULT_RETRY: RetryPolicy = { limit: 3, delaySeconds: 30, backoff: true };
/** A job running longer is failed (and retried): the handler's signal is aborted. */
export const DEFAULT_TIMEOUT_SECONDS = 300;

type Scope = {
  /** A write transaction in this job's scope (withTenant / withSystem). */
  write<T>(fn: (tx: WriteTx) => Promise<T>): Promise<T>;
  /** A read in this job's scope (readTenant / readSystem). */
  read<T>(fn: (tx: ReadTx) => Promise<T>): Promise<T>;
};

/** What a queued job's sender passes: `tx` puts the job in the caller's transaction. */
export type SendOptions = {
  /** The caller's write transaction: a rollback queues nothing. */
  tx?: WriteTx;
  /** Not before this date, or this many seconds from now. */
  startAfter?: Date | number;
  /** At most one job of this kind per key and slot of `seconds` (≤ 43 200, pg-boss throttling): a second send in the slot returns null. */
  singleton?: { key: string; seconds: number };
};

export type Send = <P>(job: JobKind<P>, payload: P, options?: SendOptions) => Promise<string | null>;

type BaseContext<P> = {
  payload: P;
  jobId: string;
  /** 1 for the first run, 2 for the first retry… */
  attempt: number;
  /** Aborted when the job times out or the process stops before it ends. */
  signal: AbortSignal;
  send: Send;
};

/** A tenant job's handler works inside its organization, as that organization's requests do. */
export type TenantJobContext<P> = BaseContext<P> & { tenant: Scope & { organizationUuid: string } };
/** A platform job (a daily scan, a fan-out to organizations) works across organizations. */
export type SystemJobContext<P> = BaseContext<P> & { system: Scope };

type TenantPayload<S extends z.ZodObject> = z.infer<S> & { organizationUuid: string };

type Common<S extends z.ZodObject> = {
  name: string;
  payload: S;
  retry?: Partial<RetryPolicy>;
  timeoutSeconds?: number;
  /** Jobs of this kind run at once in one process (pg-boss batch size). */
  concurrency?: number;
};

export type TenantJobDefinition<S extends z.ZodObject> = Common<S> & {
  tenant: true;
  handler: (context: TenantJobContext<TenantPayload<S>>) => Promise<void>;
};

export type SystemJobDefinition<S extends z.ZodObject> = Common<S> & {
  tenant: false;
  /** Five-field cron, Europe/Paris: the queue sends this job ({} as payload) once per match, across processes. */
  schedule?: string;
  handler: (context: SystemJobContext<z.infer<S>>) => Promise<void>;
};

export type JobKind<P = unknown> = {
  readonly name: string;
  readonly deadLetterName: string;
  readonly tenant: boolean;
  readonly schema: z.ZodType<P>;
  readonly retry: RetryPolicy;
  readonly timeoutSeconds: number;
  readonly concurrency: number;
  readonly schedule: string | undefined;
  /** Called by the queue with the payload already parsed (a method: kinds of any payload fit JobKind<unknown>). */
  run(context: BaseContext<P> & Partial<TenantJobContext<P>> & Partial<SystemJobContext<P>>): Promise<void>;
};

/** A payload refused at send: the message names the fields. */
export class JobPayloadError extends Error {
  constructor(
    readonly jobName: string,
    readonly issues: readonly { path: string; message: string }[],
  ) {
    super(`Invalid payload for job ${jobName}: ${issues.map((issue) => `${issue.path || '(payload)'}: ${issue.message}`).join('; ')}`);
    this.name = 'JobPayloadError';
  }
}

/** A failure retrying cannot fix (the record is gone, the payload is invalid): straight to the dead letter. */
export class PermanentJobError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'PermanentJobError';
  }
}

export function payloadIssues(error: z.ZodError): { path: string; message: string }[] {
  return error.issues.map((issue) => ({ path: issue.path.join('.'), message: issue.message }));
}

export function defineJob<S extends z.ZodObject>(definition: TenantJobDefinition<S>): JobKind<TenantPayload<S>>;
export function defineJob<S extends z.ZodObject>(definition: SystemJobDefinition<S>): JobKind<z.infer<S>>;
export function defineJob<S extends z.ZodObject>(definition: TenantJobDefinition<S> | SystemJobDefinition<S>): JobKind<unknown> {
  const { name } = definition;
  if (!JOB_NAME.test(name) || name.length > MAX_NAME_LENGTH) {
    throw new Error(`Job name ${JSON.stringify(name)}: lowercase words separated by dots, at most ${MAX_NAME_LENGTH} characters`);
  }
  const retry = { ...DEFAULT_RETRY, ...definition.retry };
  if (!Number.isInteger(retry.limit) || retry.limit < 0 || !Number.isInteger(retry.delaySeconds) || retry.delaySeconds < 0) {
    throw new Error(`Job ${name}: retry.limit and retry.delaySeconds are integers >= 0`);
  }
  const timeoutSeconds = definition.timeoutSeconds ?? DEFAULT_TIMEOUT_SECONDS;
  if (!Number.isInteger(timeoutSeconds) || timeoutSeconds < 1 || timeoutSeconds > 3600) throw new Error(`Job ${name}: timeoutSeconds from 1 to 3600`);
  const concurrency = definition.concurrency ?? 1;
  if (!Number.isInteger(concurrency) || concurrency < 1 || concurrency > 20) throw new Error(`Job ${name}: concurrency from 1 to 20`);
  const schedule = definition.tenant ? undefined : definition.schedule;
  if (definition.tenant && 'schedule' in definition) {
    throw new Error(`Job ${name}: a tenant job cannot be scheduled (which organization?); schedule a platform job that sends one per organization`);
  }
  // A tenant job always knows its organization: the queue runs it in that organization's scope.
  const schema = definition.tenant ? definition.payload.extend({ organizationUuid: z.uuid() }) : definition.payload;
  if (schedule !== undefined && !schema.safeParse({}).success) {
    throw new Error(`Job ${name}: a scheduled job is sent with {} as payload, which its schema refuses`);
  }
  const handler = definition.handler as (context: unknown) => Promise<void>;
  return Object.freeze({
    name,
    deadLetterName: `${name}.dead-letter`,
    tenant: definition.tenant,
    schema: schema as z.ZodType<unknown>,
    retry,
    timeoutSeconds,
    concurrency,
    schedule,
    run: (context) => handler(context),
  });
}
