import {
  type CreateEnvironmentBodySchema,
  type CreateTierBody,
  type Environment,
  type PaginatedSearchQuery,
  type RootSpacePage,
  type Superadmin,
  type Tier,
  TIER_SAME_DAY_MESSAGE,
  todayIso,
  type UpdateEnvironmentBodySchema,
  type UpdateTierBody,
} from '@flotte/contract';
import type { z } from 'zod';
import type { Database } from '../../db/client.js';
import { withSystem, type ReadTx } from '../../db/scope.js';
import { ConflictError, ForbiddenError, NotFoundError } from '../../errors.js';
import { type AuthContext, isRoot, managesEnvironment } from '../../lib/auth-context.js';
import { isUniqueViolation } from '../../lib/db-errors.js';
import { offsetOf, toPage } from '../../lib/pagination.js';
import { hasTotpEnabled } from '../auth/totp.service.js';
import * as organizationsService from '../organizations/organizations.service.js';
import * as usersService from '../users/users.service.js';
import * as repo from './environments.repository.js';
import { parisMidnight, tierInForce } from './tiers.js';
import { inviteSuperadmin, type SpaceMail } from './space-invitation.js';

function toTier(row: repo.TierRow): Tier {
  return {
    uuid: row.uuid,
    title: row.title,
    startAt: row.startAt.toISOString(),
    startDate: todayIso(row.startAt),
    endAt: row.endAt?.toISOString() ?? null,
    priceCents: row.priceCents,
    includedOrganizations: row.includedOrganizations,
    freeOrganizations: row.freeOrganizations,
  };
}

async function loadEnvironment(tx: ReadTx, ctx: AuthContext, environmentUuid: string): Promise<Environment> {
  const environment = await repo.findEnvironment(tx, environmentUuid);
  if (!environment) throw new NotFoundError('Environnement introuvable');
  const manager = managesEnvironment(ctx, environment.uuid);
  const [tiers, environmentUsers, organizations] = await Promise.all([
    // The operator's prices for the broker are theirs: a client company sees none (decision 043).
    manager ? repo.findTiers(tx, environment.uuid) : Promise.resolve([]),
    manager ? repo.findEnvironmentUsers(tx, environment.uuid) : Promise.resolve([]),
    organizationsService.listForEnvironments(tx, [environment.uuid]),
  ]);
  return {
    uuid: environment.uuid,
    title: environment.title,
    logo: environment.logoUrl ? { url: environment.logoUrl } : null,
    refererEmail: environment.refererEmail,
    bookingUrl: environment.bookingUrl,
    tiers: tiers.map(toTier),
    environmentUsers,
    // A client company sees only its own organizations, never the broker's other clients.
    organizations: manager
      ? organizations
      : organizations.filter((o) => o.uuid === ctx.organizationUuid),
    freeOrganizations: environment.freeOrganizations,
    stripeProductId: manager ? environment.stripeProductId : null,
    requireSuperadminTotp: environment.requireSuperadminTotp,
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

/** ROOT creates a space; with `superadmin`, its first superadmin is invited by e-mail in the same transaction (decision 043). */
export async function create(db: Database, ctx: AuthContext, body: z.output<typeof CreateEnvironmentBodySchema>, mail?: SpaceMail) {
  if (!isRoot(ctx)) throw new ForbiddenError('Seul un administrateur de la plateforme peut créer un espace');
  const { superadmin, ...fields } = body;
  return withSystem(db, async (tx) => {
    const uuid = await repo.insertEnvironment(tx, fields);
    if (superadmin) {
      if (!mail) throw new Error('The mail service is needed to invite a superadmin');
      await inviteSuperadmin(tx, mail, { environmentUuid: uuid, environmentTitle: fields.title, inviterUuid: ctx.userUuid, ...superadmin });
    }
    return loadEnvironment(tx, ctx, uuid);
  });
}

const ROOT_ONLY_MESSAGE = 'Espace introuvable';

/** /root/spaces: every space with its superadmins, the tier in force and its usage (ROOT only; others 404). */
export async function listSpaces(db: Database, ctx: AuthContext, query: PaginatedSearchQuery, now = new Date()): Promise<RootSpacePage> {
  if (!isRoot(ctx)) throw new NotFoundError(ROOT_ONLY_MESSAGE);
  const today = todayIso(now);
  const { rows, total } = await withSystem(db, async (tx) => {
    const page = await repo.listEnvironments(tx, 'all', { search: query.search, limit: query.limit, offset: offsetOf(query.page, query.limit) });
    const uuids = page.rows.map((row) => row.uuid);
    const [details, superadmins, tiers, usage] = await Promise.all([
      repo.findEnvironmentsByUuid(tx, uuids),
      repo.findSuperadmins(tx, uuids),
      repo.findTiers(tx, uuids),
      repo.findUsage(tx, uuids, today),
    ]);
    const data = page.rows.map((row) => {
      const detail = details.find((d) => d.uuid === row.uuid)!;
      const own = tiers.filter((tier) => tier.environmentUuid === row.uuid);
      const current = tierInForce(own, now);
      return {
        ...row,
        bookingUrl: detail.bookingUrl,
        freeOrganizations: detail.freeOrganizations,
        stripeProductId: detail.stripeProductId,
        superadmins: superadmins.filter((s) => s.environmentUuid === row.uuid).map(({ environmentUuid: _, ...s }) => s),
        currentTier: current ? toTier(current) : null,
        tiersCount: own.length,
        usage: {
          vehicules: usage.vehicules.find((u) => u.environmentUuid === row.uuid)?.n ?? 0,
          organizations: row.organizationsCount,
          storageBytes: usage.storage.find((u) => u.environmentUuid === row.uuid)?.bytes ?? 0,
        },
      };
    });
    return { rows: data, total: page.total };
  });
  return toPage(rows, total, query.page, query.limit);
}

/** The tiers of a space, sorted by startAt (ROOT only; others 404). */
export async function listTiers(db: Database, ctx: AuthContext, environmentUuid: string): Promise<{ data: Tier[]; current: string | null }> {
  if (!isRoot(ctx)) throw new NotFoundError('Environnement introuvable');
  return withSystem(db, async (tx) => {
    if (!(await repo.findEnvironment(tx, environmentUuid))) throw new NotFoundError('Environnement introuvable');
    const tiers = await repo.findTiers(tx, environmentUuid);
    return { data: tiers.map(toTier), current: tierInForce(tiers, new Date())?.uuid ?? null };
  });
}

const sameDay = () => new ConflictError(TIER_SAME_DAY_MESSAGE, [{ path: 'startDate', message: TIER_SAME_DAY_MESSAGE }]);

function tierValues(body: UpdateTierBody) {
  return {
    ...(body.title !== undefined && { title: body.title }),
    ...(body.startDate !== undefined && { startAt: parisMidnight(body.startDate) }),
    ...(body.priceCents !== undefined && { priceCents: body.priceCents }),
    ...(body.includedOrganizations !== undefined && { includedOrganizations: body.includedOrganizations }),
    ...(body.freeOrganizations !== undefined && { freeOrganizations: body.freeOrganizations }),
  };
}

export async function createTier(db: Database, ctx: AuthContext, environmentUuid: string, body: CreateTierBody): Promise<Tier> {
  if (!isRoot(ctx)) throw new NotFoundError('Environnement introuvable');
  return withSystem(db, async (tx) => {
    if (!(await repo.findEnvironment(tx, environmentUuid))) throw new NotFoundError('Environnement introuvable');
    const uuid = await repo.insertTier(tx, { environmentUuid, title: body.title, startAt: parisMidnight(body.startDate), priceCents: body.priceCents, ...tierValues({ includedOrganizations: body.includedOrganizations, freeOrganizations: body.freeOrganizations }) });
    if (!uuid) throw sameDay();
    return toTier((await repo.findTier(tx, environmentUuid, uuid))!);
  });
}

export async function updateTier(db: Database, ctx: AuthContext, environmentUuid: string, tierUuid: string, body: UpdateTierBody): Promise<Tier> {
  if (!isRoot(ctx)) throw new NotFoundError('Palier introuvable');
  return withSystem(db, async (tx) => {
    if (!(await repo.findTier(tx, environmentUuid, tierUuid))) throw new NotFoundError('Palier introuvable');
    const values = tierValues(body);
    const startAt = values.startAt;
    if (startAt && (await repo.findTiers(tx, environmentUuid)).some((t) => t.uuid !== tierUuid && t.startAt.getTime() === startAt.getTime())) throw sameDay();
    try {
      await repo.updateTier(tx, tierUuid, values);
    } catch (error) {
      if (isUniqueViolation(error)) throw sameDay();
      throw error;
    }
    return toTier((await repo.findTier(tx, environmentUuid, tierUuid))!);
  });
}

export async function deleteTier(db: Database, ctx: AuthContext, environmentUuid: string, tierUuid: string): Promise<void> {
  if (!isRoot(ctx)) throw new NotFoundError('Palier introuvable');
  await withSystem(db, async (tx) => {
    if (!(await repo.findTier(tx, environmentUuid, tierUuid))) throw new NotFoundError('Palier introuvable');
    await repo.deleteTier(tx, tierUuid);
  });
}

export async function update(db: Database, ctx: AuthContext, environmentUuid: string, body: z.output<typeof UpdateEnvironmentBodySchema>) {
  if (!managesEnvironment(ctx, environmentUuid)) {
    // A member of one of its client organizations knows the environment (the help dialog shows
    // it): 403. Anyone else is not told it exists.
    const member = await withSystem(db, (tx) => belongsTo(tx, ctx, environmentUuid));
    if (member) throw new ForbiddenError("Seul un superadmin de l'environnement peut modifier ses paramètres");
    throw new NotFoundError('Environnement introuvable');
  }
  // The commercial terms of a broker's space are the platform's to set, not the broker's.
  if (!isRoot(ctx) && (body.freeOrganizations !== undefined || body.stripeProductId !== undefined)) {
    throw new ForbiddenError("Seul l'opérateur de la plateforme peut modifier les conditions commerciales de l'espace");
  }
  return withSystem(db, async (tx) => {
    const environment = await repo.findEnvironment(tx, environmentUuid);
    if (!environment) throw new NotFoundError('Environnement introuvable');
    // A superadmin requiring two-factor sign-in must already use it: otherwise its next sign-in
    // would demand a setup it may not be able to finish (decision 040). ROOT is not concerned.
    if (body.requireSuperadminTotp === true && !environment.requireSuperadminTotp && !isRoot(ctx) && !(await hasTotpEnabled(tx, ctx.userUuid))) {
      throw new ConflictError(
        'Activez d’abord la double authentification sur votre propre compte (Paramètres compte) : sans elle, vous ne pourriez plus vous connecter une fois cette règle en place.',
      );
    }
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
