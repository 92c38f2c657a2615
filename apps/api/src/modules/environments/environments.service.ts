import type {
  CreateEnvironmentBodySchema,
  Environment,
  PaginatedSearchQuery,
  Superadmin,
  UpdateEnvironmentBodySchema,
} from '@flotte/contract';
import type { z } from 'zod';
import type { Database } from '../../db/client.js';
import { withSystem, type ReadTx } from '../../db/scope.js';
import { ForbiddenError, NotFoundError } from '../../errors.js';
import { type AuthContext, isRoot, managesEnvironment } from '../../lib/auth-context.js';
import { offsetOf, toPage } from '../../lib/pagination.js';
import * as organizationsService from '../organizations/organizations.service.js';
import * as usersService from '../users/users.service.js';
import * as repo from './environments.repository.js';

async function loadEnvironment(tx: ReadTx, ctx: AuthContext, environmentUuid: string): Promise<Environment> {
  const environment = await repo.findEnvironment(tx, environmentUuid);
  if (!environment) throw new NotFoundError('Environnement introuvable');
  const manager = managesEnvironment(ctx, environment.uuid);
  const [tiers, environmentUsers, organizations] = await Promise.all([
    repo.findTiers(tx, environment.uuid),
    manager ? repo.findEnvironmentUsers(tx, environment.uuid) : Promise.resolve([]),
    organizationsService.listForEnvironments(tx, [environment.uuid]),
  ]);
  return {
    uuid: environment.uuid,
    title: environment.title,
    refererEmail: environment.refererEmail,
    bookingUrl: environment.bookingUrl,
    tiers: tiers.map((t) => ({ ...t, startAt: t.startAt.toISOString(), endAt: t.endAt?.toISOString() ?? null })),
    environmentUsers,
    // A client company sees only its own organizations, never the broker's other clients.
    organizations: manager
      ? organizations
      : organizations.filter((o) => o.uuid === ctx.organizationUuid),
    freeOrganizations: environment.freeOrganizations,
    stripeProductId: manager ? environment.stripeProductId : null,
  };
}

/** The environment the user works in: its environment link, else its organization's. */
async function currentEnvironmentUuid(db: Database, ctx: AuthContext): Promise<string | null> {
  const profile = await usersService.getProfile(db, ctx.userUuid);
  return (
    profile.currentEnvironmentUser?.environment.uuid ??
    profile.currentOrganizationUser?.organization.environment?.uuid ??
    null
  );
}

/**
 * Is the caller part of this environment (member of one of its organizations, attached, or ROOT)?
 * Any of its organizations counts, not only the current one: a client of two brokers reaches both.
 */
async function belongsTo(tx: ReadTx, ctx: AuthContext, environmentUuid: string): Promise<boolean> {
  if (managesEnvironment(ctx, environmentUuid) || ctx.environmentUuids.includes(environmentUuid)) return true;
  return organizationsService.isMemberInEnvironment(tx, ctx.userUuid, environmentUuid);
}

export async function list(db: Database, ctx: AuthContext, query: PaginatedSearchQuery) {
  const only = isRoot(ctx) ? 'all' : ctx.environmentUuids.filter((uuid) => managesEnvironment(ctx, uuid));
  const { rows, total } = await withSystem(db, (tx) =>
    repo.listEnvironments(tx, only, { search: query.search, limit: query.limit, offset: offsetOf(query.page, query.limit) }),
  );
  return toPage(rows, total, query.page, query.limit);
}

export async function getCurrent(db: Database, ctx: AuthContext): Promise<Environment> {
  const environmentUuid = await currentEnvironmentUuid(db, ctx);
  if (!environmentUuid) throw new NotFoundError("Vous n'êtes rattaché à aucun environnement");
  return withSystem(db, (tx) => loadEnvironment(tx, ctx, environmentUuid));
}

export async function getOne(db: Database, ctx: AuthContext, environmentUuid: string): Promise<Environment> {
  if (!managesEnvironment(ctx, environmentUuid)) throw new NotFoundError('Environnement introuvable');
  return withSystem(db, (tx) => loadEnvironment(tx, ctx, environmentUuid));
}

export async function create(db: Database, ctx: AuthContext, body: z.output<typeof CreateEnvironmentBodySchema>) {
  if (!isRoot(ctx)) throw new ForbiddenError('Seul un administrateur de la plateforme peut créer un espace');
  return withSystem(db, async (tx) => {
    const uuid = await repo.insertEnvironment(tx, body);
    return loadEnvironment(tx, ctx, uuid);
  });
}

export async function update(db: Database, ctx: AuthContext, environmentUuid: string, body: z.output<typeof UpdateEnvironmentBodySchema>) {
  if (!managesEnvironment(ctx, environmentUuid)) throw new NotFoundError('Environnement introuvable');
  // The commercial terms of a broker's space are the platform's to set, not the broker's.
  if (!isRoot(ctx) && (body.freeOrganizations !== undefined || body.stripeProductId !== undefined)) {
    throw new ForbiddenError("Seul l'opérateur de la plateforme peut modifier les conditions commerciales de l'espace");
  }
  return withSystem(db, async (tx) => {
    if (!(await repo.findEnvironment(tx, environmentUuid))) throw new NotFoundError('Environnement introuvable');
    await repo.updateEnvironment(tx, environmentUuid, body);
    return loadEnvironment(tx, ctx, environmentUuid);
  });
}

/** ROOT attaches itself to an environment to work in it, and becomes its current one. */
export async function join(db: Database, ctx: AuthContext, environmentUuid: string) {
  if (!isRoot(ctx)) throw new NotFoundError('Environnement introuvable');
  return withSystem(db, async (tx) => {
    const environment = await repo.findEnvironment(tx, environmentUuid);
    if (!environment) throw new NotFoundError('Environnement introuvable');
    const uuid = await repo.insertEnvironmentUser(tx, environmentUuid, ctx.userUuid);
    await usersService.setCurrentEnvironmentUser(tx, ctx.userUuid, uuid);
    return { uuid, environment: { uuid: environment.uuid, title: environment.title } };
  });
}

/** Leaves an environment the caller is attached to. */
export async function quit(db: Database, ctx: AuthContext, environmentUuid: string) {
  await withSystem(db, async (tx) => {
    const link = await repo.findEnvironmentUser(tx, environmentUuid, ctx.userUuid);
    if (!link) throw new NotFoundError('Environnement introuvable');
    await repo.deleteEnvironmentUser(tx, link.uuid);
  });
}

export async function getSuperadmin(db: Database, ctx: AuthContext, environmentUuid: string): Promise<Superadmin> {
  const row = await withSystem(db, async (tx) => {
    if (!(await belongsTo(tx, ctx, environmentUuid))) throw new NotFoundError('Environnement introuvable');
    if (!(await repo.findEnvironment(tx, environmentUuid))) throw new NotFoundError('Environnement introuvable');
    return repo.findSuperadmin(tx, environmentUuid);
  });
  if (!row) return null;
  return {
    avatar: row.avatarUrl ? { url: row.avatarUrl } : null,
    firstName: row.firstName,
    lastName: row.lastName,
    description: row.description,
    phone: row.phone,
  };
}

/** For the demo seed and tests. */
export const createEnvironmentRecord = repo.insertEnvironment;
export const addTier = repo.insertTier;
export const attachUser = repo.insertEnvironmentUser;
