import type {
  CreateOrganizationUserBodySchema,
  ListOrganizationUsersQuerySchema,
  Organization,
  OrganizationUser,
  PaginatedSearchQuery,
} from '@flotte/contract';
import type { z } from 'zod';
import type { Database } from '../../db/client.js';
import { withSystem, type ReadTx, type WriteTx } from '../../db/scope.js';
import { ConflictError, ForbiddenError, NotFoundError } from '../../errors.js';
import { type AuthContext, isAdmin, isRoot, isSuperadmin, managesEnvironment } from '../../lib/auth-context.js';
import { offsetOf, toPage } from '../../lib/pagination.js';
import * as repo from './organizations.repository.js';

export function toOrganization(row: repo.OrganizationRow): Organization {
  return {
    uuid: row.uuid,
    title: row.title,
    avatar: row.avatarUrl ? { url: row.avatarUrl } : null,
    environment: row.environmentUuid && row.environmentTitle ? { uuid: row.environmentUuid, title: row.environmentTitle } : null,
    subscription: null,
  };
}

function toOrganizationUser(row: repo.LinkRow): OrganizationUser {
  return {
    uuid: row.uuid,
    organization: toOrganization(row.organization as repo.OrganizationRow),
    user: {
      uuid: row.user.uuid,
      firstName: row.user.firstName,
      lastName: row.user.lastName,
      email: row.user.email,
      avatar: row.user.avatarUrl ? { url: row.user.avatarUrl } : null,
    },
  };
}

/** Used by other modules (users: organization switch) to check environment management. */
export async function findOrganizationEnvironment(tx: ReadTx, organizationUuid: string): Promise<string | null> {
  return (await repo.findOrganization(tx, organizationUuid))?.environmentUuid ?? null;
}

/** Is the user a member of at least one organization of this environment? (environment service) */
export async function isMemberInEnvironment(tx: ReadTx, userUuid: string, environmentUuid: string): Promise<boolean> {
  return repo.hasLinkInEnvironment(tx, userUuid, environmentUuid);
}

/** Organizations in an environment, for the environment service (no access check here). */
export async function listForEnvironments(tx: ReadTx, environmentUuids: readonly string[]) {
  const { rows } = await repo.listOrganizations(tx, { kind: 'environments', environmentUuids }, { limit: 1000, offset: 0 });
  return rows.map(toOrganization);
}

/** Own organizations; a superadmin also those of its environments; ROOT every one. */
export async function listVisible(db: Database, ctx: AuthContext, query: PaginatedSearchQuery) {
  const filter: repo.OrganizationFilter = isRoot(ctx)
    ? { kind: 'all' }
    : { kind: 'visibleTo', userUuid: ctx.userUuid, environmentUuids: isSuperadmin(ctx) ? ctx.environmentUuids : [] };
  const { rows, total } = await withSystem(db, (tx) =>
    repo.listOrganizations(tx, filter, { search: query.search, limit: query.limit, offset: offsetOf(query.page, query.limit) }),
  );
  return toPage(rows.map(toOrganization), total, query.page, query.limit);
}

/** The organizations of the environments the caller manages (the superadmin's switcher). */
export async function listOfMyEnvironments(db: Database, ctx: AuthContext, query: PaginatedSearchQuery) {
  const environmentUuids = isSuperadmin(ctx) || isRoot(ctx) ? ctx.environmentUuids : [];
  const { rows, total } = await withSystem(db, (tx) =>
    repo.listOrganizations(
      tx,
      { kind: 'environments', environmentUuids },
      { search: query.search, limit: query.limit, offset: offsetOf(query.page, query.limit) },
    ),
  );
  return toPage(rows.map(toOrganization), total, query.page, query.limit);
}

/**
 * May the caller manage the members of this organization? Unknown or invisible → 404 (with the
 * caller's own "not found" message, so a foreign id reads like an unknown one), visible but not
 * allowed → 403.
 */
async function assertCanManageMembers(tx: ReadTx, ctx: AuthContext, organizationUuid: string, notFound = 'Organisation introuvable') {
  const organization = await repo.findOrganization(tx, organizationUuid);
  if (!organization) throw new NotFoundError(notFound);
  if (isRoot(ctx) || managesEnvironment(ctx, organization.environmentUuid)) return organization;
  const member = await repo.findLinkFor(tx, organizationUuid, ctx.userUuid);
  if (!member) throw new NotFoundError(notFound);
  if (!isAdmin(ctx)) throw new ForbiddenError("Seul un administrateur peut gérer les membres de l'organisation");
  return organization;
}

export async function listLinks(db: Database, ctx: AuthContext, query: z.output<typeof ListOrganizationUsersQuerySchema>) {
  const options = { search: query.search, limit: query.limit, offset: offsetOf(query.page, query.limit) };
  const { rows, total } = await withSystem(db, async (tx) => {
    if (!query.organization) return repo.listLinks(tx, { userUuid: ctx.userUuid }, options);
    const organization = await repo.findOrganization(tx, query.organization);
    const visible =
      organization &&
      (isRoot(ctx) ||
        managesEnvironment(ctx, organization.environmentUuid) ||
        (await repo.findLinkFor(tx, organization.uuid, ctx.userUuid)));
    if (!visible) throw new NotFoundError('Organisation introuvable');
    return repo.listLinks(tx, { organizationUuid: organization.uuid }, options);
  });
  return toPage(rows.map(toOrganizationUser), total, query.page, query.limit);
}

export async function createLink(db: Database, ctx: AuthContext, body: z.output<typeof CreateOrganizationUserBodySchema>) {
  return withSystem(db, async (tx) => {
    const organization = await assertCanManageMembers(tx, ctx, body.organization);
    // Linking an existing account by its id is for ROOT and the environment's superadmin: an
    // administrator adds people by invitation, and must not learn whether an id is an account
    // (nor its e-mail, which the answer shows).
    if (!isRoot(ctx) && !managesEnvironment(ctx, organization.environmentUuid)) {
      throw new ForbiddenError("Un administrateur ajoute un membre en l'invitant : seul le superadmin de l'environnement rattache un compte existant");
    }
    if (!(await repo.userExists(tx, body.user))) throw new NotFoundError('Utilisateur introuvable');
    const uuid = await repo.insertLink(tx, body.organization, body.user);
    if (!uuid) throw new ConflictError("Cet utilisateur est déjà membre de l'organisation");
    return toOrganizationUser((await repo.findLink(tx, uuid))!);
  });
}

export async function deleteLink(db: Database, ctx: AuthContext, linkUuid: string) {
  await withSystem(db, async (tx) => {
    const notFound = "Lien d'organisation introuvable";
    const link = await repo.findLink(tx, linkUuid);
    if (!link) throw new NotFoundError(notFound);
    await assertCanManageMembers(tx, ctx, link.organizationUuid, notFound);
    await repo.deleteLink(tx, linkUuid);
  });
}

/** For the demo seed and tests. */
export async function createOrganization(tx: WriteTx, values: { title: string; environmentUuid?: string | null; avatarUrl?: string | null }) {
  return repo.insertOrganization(tx, values);
}
export async function addMember(tx: WriteTx, organizationUuid: string, userUuid: string) {
  return repo.insertLink(tx, organizationUuid, userUuid);
}
