import { AsyncLocalStorage } from 'node:async_hooks';
import type { Role } from '@flotte/contract';

/**
 * Who writes (decision 041): the signed-in user of the request, and the role it acts with. The
 * write transactions of db/scope.ts hand it to PostgreSQL (`app.actor`), where the activity log's
 * triggers read it; no call site passes it. Without one (a job, a seed, the bench) nothing is
 * recorded.
 */
export type Actor = Readonly<{ userUuid: string; role: Role }>;

const storage = new AsyncLocalStorage<Actor>();

/** Runs fn, and everything it starts, as actor. */
export function runAsActor<T>(actor: Actor, fn: () => T): T {
  return storage.run(actor, fn);
}

/**
 * Runs fn as no one: a background job is the platform's work, even when a request's commit woke
 * its worker (whose async context would otherwise still carry that request's actor).
 */
export function runAsNoOne<T>(fn: () => T): T {
  return storage.exit(fn);
}

/** The actor of the work running now, if any. */
export function currentActor(): Actor | undefined {
  return storage.getStore();
}

/** The highest of a caller's roles: what the log says it acted as. */
export function actingRole(roles: readonly Role[]): Role {
  for (const role of ['ROOT', 'SUPERADMIN', 'ADMIN'] as const) if (roles.includes(role)) return role;
  return 'USER';
}

/** The actor as the `app.actor` setting carries it ('' for none). */
export function actorSetting(actor: Actor | undefined): string {
  return actor ? JSON.stringify({ uuid: actor.userUuid, role: actor.role }) : '';
}
