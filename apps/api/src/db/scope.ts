import { AsyncLocalStorage } from 'node:async_hooks';
import { type SQL, sql } from 'drizzle-orm';
import { APP_ROLE, type Database, fairShareOf, scopedReadsOf, SYSTEM_ROLE } from './client.js';
import { actorSetting, currentActor } from './actor.js';
import { type ReadScope, tryOneStatementRead } from './scoped-reads.js';
import { runInStatementScope } from './statement-timing.js';

/**
 * What repositories write with: a transaction scoped to one organization (withTenant) or to the
 * whole platform (withSystem). A write transaction can also read: a WriteTx is a ReadTx.
 */
export type WriteTx = Database;

/**
 * What repositories read with: one consistent snapshot of the database that cannot write (the
 * database refuses it: the read runs read-only). Several statements of one read see the same data.
 */
export type ReadTx = Omit<Database, 'insert' | 'update' | 'delete' | 'transaction' | 'refreshMaterializedView'>;

function tenantScope(organizationUuid: string): SQL {
  return sql`SELECT set_config('role', ${APP_ROLE}, true), set_config('app.org_id', ${organizationUuid}, true)`;
}
const systemScope = sql`SELECT set_config('role', ${SYSTEM_ROLE}, true)`;

/**
 * A write's scope also names who writes (`app.actor`, db/actor.ts): the activity log's triggers
 * record the rows a signed-in person writes, and nothing when no one is (decision 041).
 */
function tenantWriteScope(organizationUuid: string): SQL {
  return sql`SELECT set_config('role', ${APP_ROLE}, true), set_config('app.org_id', ${organizationUuid}, true), set_config('app.actor', ${actorSetting(currentActor())}, true)`;
}
function systemWriteScope(): SQL {
  return sql`SELECT set_config('role', ${SYSTEM_ROLE}, true), set_config('app.actor', ${actorSetting(currentActor())}, true)`;
}
/** The fair share's key of work across organizations (db/fair-share.ts). */
const SYSTEM_KEY = 'system';

/**
 * Runs a database operation in its organization's turn for a connection (decision 011). Its
 * statements' timings name the organization (db/statement-timing.ts, the slow-statement log).
 */
function inTurn<T>(db: Database, key: string, fn: () => Promise<T>): Promise<T> {
  const share = fairShareOf(db);
  const scoped = () => runInStatementScope(key, fn);
  return share ? share.run(key, scoped) : scoped();
}

/** What each open write transaction runs once it has committed (afterCommit). */
const committedHooks = new WeakMap<object, (() => void)[]>();

/**
 * A write to make in the first tenant transaction of one organization that the work running now
 * commits, in that transaction: a request's Idempotency-Key says « its change committed » atomically
 * with the change (lib/idempotency.ts, decision 050). Used once, then spent.
 */
type CommitMark = { readonly organizationUuid: string; readonly write: (tx: WriteTx) => Promise<void>; spent: boolean };
const commitMarks = new AsyncLocalStorage<CommitMark>();

/** Runs fn, and everything it starts, with a commit mark: the first withTenant of organizationUuid that commits runs write in its transaction. */
export function runWithCommitMark<T>(organizationUuid: string, write: (tx: WriteTx) => Promise<void>, fn: () => T): T {
  return commitMarks.run({ organizationUuid, write, spent: false }, fn);
}

/** Runs fn without the commit mark of the work that started it (a job a request's commit woke, the key's own writes). */
export function runWithoutCommitMark<T>(fn: () => T): T {
  return commitMarks.exit(fn);
}

/** A write transaction with its scope; its afterCommit hooks run once it has committed, never after a rollback. */
async function writeTransaction<T>(db: Database, scope: SQL, fn: (tx: WriteTx) => Promise<T>, organizationUuid?: string): Promise<T> {
  const hooks: (() => void)[] = [];
  const result = await db.transaction(async (tx) => {
    committedHooks.set(tx, hooks);
    await tx.execute(scope);
    const value = await fn(tx);
    const mark = organizationUuid === undefined ? undefined : commitMarks.getStore();
    if (mark && !mark.spent && mark.organizationUuid === organizationUuid) {
      await mark.write(tx);
      // Spent once this commits; a rollback leaves it for the request's next transaction.
      hooks.unshift(() => (mark.spent = true));
    }
    return value;
  });
  for (const hook of hooks) hook();
  return result;
}

/**
 * Runs hook once the transaction of withTenant or withSystem that `tx` is has committed (a job
 * sent in it is visible then: its worker is woken). Returns false, and never runs hook, for any
 * other transaction (a nested one, a read). A hook must not throw: it runs after the commit, and
 * the caller would see a committed change fail.
 */
export function afterCommit(tx: WriteTx, hook: () => void): boolean {
  const hooks = committedHooks.get(tx);
  hooks?.push(hook);
  return hooks !== undefined;
}

/**
 * Runs fn in a transaction scoped to one organization: row-level security then hides every
 * other organization's rows, even from a query that forgets its WHERE.
 */
export function withTenant<T>(db: Database, organizationUuid: string, fn: (tx: WriteTx) => Promise<T>): Promise<T> {
  return inTurn(db, organizationUuid, () => writeTransaction(db, tenantWriteScope(organizationUuid), fn, organizationUuid));
}

/**
 * Runs fn across organizations: login, the organization directory, role checks. Only services
 * that check access themselves use it; feature data (drivers, vehicles, claims…) never does.
 */
export function withSystem<T>(db: Database, fn: (tx: WriteTx) => Promise<T>): Promise<T> {
  return inTurn(db, SYSTEM_KEY, () => writeTransaction(db, systemWriteScope(), fn));
}

/**
 * Runs fn as the holder of one survey link (decision 038): the tenant role with no organization
 * and the link's hash in `app.survey_token`. Row-level security then shows the one recipient row
 * of that hash, its survey, and lets it write its own answers: nothing else of any organization.
 */
export function withSurveyRespondent<T>(db: Database, tokenHash: string, fn: (tx: WriteTx) => Promise<T>): Promise<T> {
  const scope = sql`SELECT set_config('role', ${APP_ROLE}, true), set_config('app.org_id', '', true), set_config('app.survey_token', ${tokenHash}, true)`;
  return inTurn(db, 'survey-respondent', () => writeTransaction(db, scope, fn));
}

/** A REPEATABLE READ, READ ONLY transaction: every statement of fn sees the same snapshot. */
function snapshot<T>(db: Database, scope: SQL, fn: (tx: ReadTx) => Promise<T>): Promise<T> {
  return db.transaction(
    async (tx) => {
      await tx.execute(scope);
      return fn(tx);
    },
    { isolationLevel: 'repeatable read', accessMode: 'read only' },
  );
}

/**
 * Reads for one organization lasting as long as fn: one REPEATABLE READ READ ONLY transaction that
 * holds its connection (and the organization's turn) until fn returns, for a cursor read batch
 * after batch (an export streamed to the client, db/list-export.ts). fn runs once.
 */
export function streamTenant<T>(db: Database, organizationUuid: string, fn: (tx: ReadTx) => Promise<T>): Promise<T> {
  return inTurn(db, organizationUuid, () => snapshot(db, tenantScope(organizationUuid), fn));
}

/**
 * Reads for one organization, as one consistent snapshot. Most reads are a single statement: on
 * PostgreSQL that statement travels in one write with its scope (db/scoped-reads.ts, decision
 * 006) and is its own snapshot. A read that turns out to need a second statement is started
 * again inside a REPEATABLE READ READ ONLY transaction (decision 010), so fn may run twice: it
 * must only read. The pool remembers the first statement of such a read, and the next reads that
 * begin with it start as a snapshot without sending it twice (db/scoped-reads.ts).
 */
export function readTenant<T>(db: Database, organizationUuid: string, fn: (tx: ReadTx) => Promise<T>): Promise<T> {
  return inTurn(db, organizationUuid, () => read(db, { role: APP_ROLE, organizationUuid }, tenantScope(organizationUuid), fn));
}

/** Read-only work across organizations, as readTenant. */
export function readSystem<T>(db: Database, fn: (tx: ReadTx) => Promise<T>): Promise<T> {
  return inTurn(db, SYSTEM_KEY, () => read(db, { role: SYSTEM_ROLE }, systemScope, fn));
}

async function read<T>(db: Database, scope: ReadScope, scopeSql: SQL, fn: (tx: ReadTx) => Promise<T>): Promise<T> {
  const reads = scopedReadsOf(db);
  if (reads) {
    const attempt = await tryOneStatementRead(scope, () => fn(reads));
    if (attempt.done) return attempt.value;
  }
  return snapshot(db, scopeSql, fn);
}
