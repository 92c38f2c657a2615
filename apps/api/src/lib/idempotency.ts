import { IDEMPOTENCY_KEY_HEADER } from '@flotte/contract';
import { createHash, randomUUID } from 'node:crypto';
import type { Readable } from 'node:stream';
import { and, eq, inArray, lt, sql } from 'drizzle-orm';
import type { Database } from '../db/client.js';
import { idempotencyKeys } from '../db/schema/idempotency.js';
import { runWithoutCommitMark, withSystem, withTenant, type WriteTx } from '../db/scope.js';
import { AppError } from '../errors.js';

/**
 * Idempotency-Key (decision 050): the store of the keys and the fingerprint of a request. The
 * hooks that run it for the routes declaring `config.idempotent` are plugins/idempotency.ts.
 */

const HEADER = IDEMPOTENCY_KEY_HEADER.toLowerCase();

/** The request's Idempotency-Key (its route's headers schema has validated it), or undefined without one. */
export function idempotencyKeyOf(request: { headers: Record<string, unknown> }): string | undefined {
  const value = request.headers[HEADER];
  return typeof value === 'string' ? value : undefined;
}

/**
 * The key an outside service (the payment provider) receives for a request carrying
 * `Idempotency-Key`: the caller's key made its own to the organization and user (two callers'
 * equal keys stay apart), hashed to a fixed length. Null without a key. The service then creates
 * one thing per key even when our record of the first call was lost to a crash.
 */
export function providerIdempotencyKey(request: { headers: Record<string, unknown> }, ctx: { organizationUuid: string | null; userUuid: string }, purpose: string): string | null {
  const key = idempotencyKeyOf(request);
  if (key === undefined || !ctx.organizationUuid) return null;
  return `flotte-${purpose}-${createHash('sha256').update(`${ctx.organizationUuid}\n${ctx.userUuid}\n${key}`).digest('hex')}`;
}

/** A key is kept this long after its first request, then swept. */
const IDEMPOTENCY_KEY_LIFETIME_MS = 24 * 60 * 60 * 1000;
/** A request holds its key this long, pushed back every third of it while it runs. */
export const IDEMPOTENCY_LEASE_MS = 30_000;

export const KEY_REUSED_MESSAGE =
  'Cette clé d’idempotence (en-tête Idempotency-Key) a déjà servi pour une autre demande : utilisez une nouvelle clé pour une nouvelle action.';
export const IN_FLIGHT_MESSAGE = 'La même demande (même clé d’idempotence) est encore en cours : réessayez dans quelques secondes.';
export const ANSWER_LOST_MESSAGE =
  'Cette demande a déjà été traitée, mais sa réponse n’a pas pu être conservée (arrêt du serveur) : actualisez la page pour voir son résultat.';

/** The same key with another request: 422, nothing done (Stripe's answer). */
export class IdempotencyKeyReusedError extends AppError {
  constructor() {
    super(422, KEY_REUSED_MESSAGE, [{ path: HEADER, message: KEY_REUSED_MESSAGE }]);
  }
}

/** The first request with this key is still running: try again after it. */
export class IdempotencyInFlightError extends AppError {
  constructor(retryAfterSeconds: number) {
    super(409, IN_FLIGHT_MESSAGE, undefined, { 'retry-after': String(retryAfterSeconds) });
  }
}

export type KeyScope = { organizationUuid: string; userUuid: string; route: string; key: string };
type StoredAnswer = { statusCode: number; contentType: string | null; body: string };

/** What a request with a key does: run (holding `claim`), replay the stored answer, or be refused. */
type Claim =
  | { kind: 'run'; claim: string }
  | { kind: 'done'; fingerprint: string | null; answer: StoredAnswer }
  | { kind: 'inFlight'; retryAfterSeconds: number }
  | { kind: 'lost' };

const whereKey = (scope: KeyScope) =>
  and(eq(idempotencyKeys.organizationUuid, scope.organizationUuid), eq(idempotencyKeys.userUuid, scope.userUuid), eq(idempotencyKeys.route, scope.route), eq(idempotencyKeys.key, scope.key));

/** A moment `ms` from now on the database's clock, the one the leases and expiries are compared with. */
const fromNow = (ms: number) => sql`now() + ${`${ms} milliseconds`}::interval`;

/**
 * Takes the key for a request, or says why not, in the caller's organization (row-level
 * security): a new key is held at once; a held one whose lease ran out belonged to a process that
 * died before its change committed (the change marks the key in its own transaction), and is
 * taken over; an expired one not swept yet starts afresh.
 */
export async function claimKey(db: Database, scope: KeyScope): Promise<Claim> {
  const claim = randomUUID();
  return runWithoutCommitMark(() =>
    withTenant(db, scope.organizationUuid, async (tx) => {
      const fresh = { state: 'pending' as const, claim, lockedUntil: fromNow(IDEMPOTENCY_LEASE_MS), fingerprint: null, statusCode: null, contentType: null, body: null };
      const lifetime = { createdAt: sql`now()`, expiresAt: fromNow(IDEMPOTENCY_KEY_LIFETIME_MS) };
      const inserted = await tx
        .insert(idempotencyKeys)
        .values({ ...scope, ...fresh, ...lifetime })
        .onConflictDoNothing()
        .returning({ key: idempotencyKeys.key });
      if (inserted.length > 0) return { kind: 'run', claim };
      const [row] = await tx
        .select({
          state: idempotencyKeys.state,
          fingerprint: idempotencyKeys.fingerprint,
          statusCode: idempotencyKeys.statusCode,
          contentType: idempotencyKeys.contentType,
          body: idempotencyKeys.body,
          expired: sql<boolean>`${idempotencyKeys.expiresAt} <= now()`,
          leaseLeftMs: sql<number | null>`(extract(epoch from ${idempotencyKeys.lockedUntil} - now()) * 1000)::float8`,
        })
        .from(idempotencyKeys)
        .where(whereKey(scope))
        .for('update');
      if (!row) return { kind: 'inFlight', retryAfterSeconds: 1 }; // swept between the two statements
      const leaseLeftMs = row.leaseLeftMs === null ? 0 : Number(row.leaseLeftMs);
      if (row.expired || (row.state === 'pending' && leaseLeftMs <= 0)) {
        await tx
          .update(idempotencyKeys)
          .set({ ...fresh, ...(row.expired ? lifetime : {}) })
          .where(whereKey(scope));
        return { kind: 'run', claim };
      }
      if (row.state === 'done') return { kind: 'done', fingerprint: row.fingerprint, answer: { statusCode: row.statusCode!, contentType: row.contentType, body: row.body ?? '' } };
      if (leaseLeftMs > 0) return { kind: 'inFlight', retryAfterSeconds: Math.max(1, Math.ceil(leaseLeftMs / 1000)) };
      return { kind: 'lost' };
    }),
  );
}

/**
 * Written by the request's change in its own transaction (db/scope.ts's commit mark): the key's
 * change has committed. Refuses (and so rolls the change back) when the key is no longer this
 * request's: another took it over after this one's lease ran out.
 */
export async function markEffect(tx: WriteTx, scope: KeyScope, claim: string): Promise<void> {
  const marked = await tx
    .update(idempotencyKeys)
    .set({ state: 'effect' })
    .where(and(whereKey(scope), eq(idempotencyKeys.claim, claim), eq(idempotencyKeys.state, 'pending')))
    .returning({ key: idempotencyKeys.key });
  if (marked.length === 0) throw new IdempotencyInFlightError(Math.ceil(IDEMPOTENCY_LEASE_MS / 1000));
}

/** The request's answer, kept for its retries. False when the key is no longer this request's. */
export async function storeAnswer(db: Database, scope: KeyScope, claim: string, fingerprint: string, answer: StoredAnswer): Promise<boolean> {
  const stored = await runWithoutCommitMark(() =>
    withTenant(db, scope.organizationUuid, (tx) =>
      tx
        .update(idempotencyKeys)
        .set({ state: 'done', claim: null, lockedUntil: null, fingerprint, ...answer })
        .where(and(whereKey(scope), eq(idempotencyKeys.claim, claim), inArray(idempotencyKeys.state, ['pending', 'effect'])))
        .returning({ key: idempotencyKeys.key }),
    ),
  );
  return stored.length > 0;
}

/** Pushes the request's lease back while it runs. */
export async function extendLease(db: Database, scope: KeyScope, claim: string): Promise<void> {
  await runWithoutCommitMark(() =>
    withTenant(db, scope.organizationUuid, (tx) =>
      tx
        .update(idempotencyKeys)
        .set({ lockedUntil: fromNow(IDEMPOTENCY_LEASE_MS) })
        .where(and(whereKey(scope), eq(idempotencyKeys.claim, claim))),
    ),
  );
}

/** A request that did not succeed gives its key back (unless its change committed): a retry runs afresh. */
export async function releaseKey(db: Database, scope: KeyScope, claim: string): Promise<void> {
  await runWithoutCommitMark(() =>
    withTenant(db, scope.organizationUuid, (tx) => tx.delete(idempotencyKeys).where(and(whereKey(scope), eq(idempotencyKeys.claim, claim), eq(idempotencyKeys.state, 'pending')))),
  );
}

/** The idempotency.sweep job: keys past their 24 h, every organization's. */
export async function sweepIdempotencyKeys(db: Database, now = new Date()): Promise<number> {
  const removed = await withSystem(db, (tx) => tx.delete(idempotencyKeys).where(lt(idempotencyKeys.expiresAt, now)).returning({ key: idempotencyKeys.key }));
  return removed.length;
}

/**
 * The embedded database is one process's (its folder is locked): at its start no request of
 * another holds a key, so every lease left by a killed process ends now, and a retry need not
 * wait for it.
 */
export async function endLeasesOfDeadProcess(db: Database): Promise<number> {
  const ended = await withSystem(db, (tx) =>
    tx
      .update(idempotencyKeys)
      .set({ lockedUntil: sql`now()` })
      .where(and(inArray(idempotencyKeys.state, ['pending', 'effect']), sql`${idempotencyKeys.lockedUntil} > now()`))
      .returning({ key: idempotencyKeys.key }),
  );
  return ended.length;
}

// ---------------------------------------------------------------- the request's fingerprint

/**
 * SHA-256 of a request's body as the route reads it, fed from the request stream's own `data`
 * events (a JSON parser and @fastify/multipart's busboy both read it so): nothing is buffered, and
 * the route reads the body as before. A multipart boundary, which a browser draws afresh for
 * each sending of the same form, is left out.
 */
export class BodyDigest {
  private readonly hash = createHash('sha256');
  private tail = Buffer.alloc(0);
  private result: string | null = null;
  private failure: Error | null = null;
  private readonly waiters: { resolve(value: string): void; reject(error: Error): void }[] = [];

  constructor(private readonly boundary: Buffer | null) {}

  get finished(): boolean {
    return this.result !== null;
  }

  update(chunk: Buffer): void {
    if (this.result !== null) return;
    if (!this.boundary) {
      this.hash.update(chunk);
      return;
    }
    const data = this.tail.length > 0 ? Buffer.concat([this.tail, chunk]) : chunk;
    let position = 0;
    for (let found = data.indexOf(this.boundary, position); found >= 0; found = data.indexOf(this.boundary, position)) {
      this.hash.update(data.subarray(position, found));
      this.hash.update('\u0000boundary\u0000');
      position = found + this.boundary.length;
    }
    // A boundary may straddle two chunks: keep what could be its beginning.
    const safe = Math.max(position, data.length - (this.boundary.length - 1));
    this.hash.update(data.subarray(position, safe));
    this.tail = Buffer.from(data.subarray(safe));
  }

  end(): void {
    if (this.result !== null) return;
    this.hash.update(this.tail);
    this.result = this.hash.digest('hex');
    for (const waiter of this.waiters.splice(0)) waiter.resolve(this.result);
  }

  fail(error: Error): void {
    if (this.result !== null || this.failure) return;
    this.failure = error;
    for (const waiter of this.waiters.splice(0)) waiter.reject(error);
  }

  digest(): Promise<string> {
    if (this.result !== null) return Promise.resolve(this.result);
    if (this.failure) return Promise.reject(this.failure);
    return new Promise((resolve, reject) => this.waiters.push({ resolve, reject }));
  }
}

/** Feeds digest with what the stream's readers read, and its end. Installed before anything reads it. */
export function tapRequestBody(raw: Readable, digest: BodyDigest): void {
  if (raw.readableEnded) {
    digest.end();
    return;
  }
  const emit = raw.emit;
  raw.emit = function (this: Readable, event: string | symbol, ...args: unknown[]) {
    if (event === 'data') {
      const chunk = args[0];
      digest.update(Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk), 'utf8'));
    } else if (event === 'end') {
      digest.end();
    } else if (event === 'error' || (event === 'close' && !digest.finished)) {
      digest.fail(new Error('requête interrompue avant la fin de son corps'));
    }
    return emit.apply(this, [event, ...args] as Parameters<typeof emit>);
  } as typeof raw.emit;
}

/** The body read to its end by no one else (a replay's, a body its route left unread): drained into the digest. */
export function drainBody(raw: Readable, digest: BodyDigest): Promise<string> {
  if (!digest.finished && !raw.readableEnded) raw.resume();
  return digest.digest();
}

/** A content type's `boundary` parameter, quoted or not (its value in the first or second group). */
const BOUNDARY_PARAMETER = /;\s*boundary=(?:"([^"]*)"|([^;\s]*))/i;

/** The boundary of a multipart request, as it appears in its body (`--` + boundary), or null. */
export function multipartBoundary(contentType: string | undefined): Buffer | null {
  if (!contentType || !/^multipart\//i.test(contentType)) return null;
  const match = BOUNDARY_PARAMETER.exec(contentType);
  const boundary = match?.[1] || match?.[2];
  return boundary ? Buffer.from(`--${boundary}`, 'latin1') : null;
}

/** The request's fingerprint: its method and URL (query included), its content type without a boundary, its body's digest. */
export function requestFingerprint(method: string, url: string, contentType: string | undefined, bodyDigest: string): string {
  const type = (contentType ?? '').replace(BOUNDARY_PARAMETER, '').trim().toLowerCase();
  return createHash('sha256').update(`${method} ${url}\n${type}\n${bodyDigest}`).digest('hex');
}
