import type {
  CreateOrganizationUserBodySchema,
  ListOrganizationUsersQuerySchema,
  MemberRole,
  Organization,
  OrganizationUser,
  PaginatedSearchQuery,
} from '@flotte/contract';
import type { z } from 'zod';
import type { Database } from '../../db/client.js';
import { withSystem, type ReadTx, type WriteTx } from '../../db/scope.js';
import { ConflictError, ForbiddenError, NotFoundError } from '../../errors.js';
import { type AuthContext, isRoot, isSuperadmin, managesEnvironment } from '../../lib/auth-context.js';
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

/**
 * A member as the API shows it. `twoFactor` (whether it signs in with a code) only for those who
 * may reset it — the environment's superadmin, ROOT (member-two-factor.ts) —, null for the others.
 */
export function toOrganizationUser(row: repo.LinkRow, showTwoFactor = false): OrganizationUser {
  return {
    uuid: row.uuid,
    organization: toOrganization(row.organization as repo.OrganizationRow),
    user: {
      uuid: row.user.uuid,
      firstName: row.user.firstName,
      lastName: row.user.lastName,
      email: row.user.email,
      avatar: row.user.avatarUrl ? { url: row.user.avatarUrl } : null,
      twoFactor: showTwoFactor ? row.user.twoFactor : null,
    },
    role: row.role,
  };
}

/** Used by other modules (users: organization switch) to check environment management. */
export async function findOrganizationEnvironment(tx: ReadTx, organizationUuid: string): Promise<string | null> {
  return (await repo.findOrganization(tx, organizationUuid))?.environmentUuid ?? null;
}

/** One organization as the contract says (no access check here). */
export async function findOrganization(tx: ReadTx, organizationUuid: string): Promise<Organization | null> {
  const row = await repo.findOrganization(tx, organizationUuid);
  return row ? toOrganization(row) : null;
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

export const MEMBERS_ADMIN_ONLY_MESSAGE = "Seul un administrateur peut gérer les membres de l'organisation";
export const LAST_ADMIN_REMOVE_MESSAGE =
  "Impossible de retirer le dernier administrateur de l'organisation : nommez d'abord un autre membre administrateur.";
export const LAST_ADMIN_DEMOTE_MESSAGE =
  "Impossible de retirer son rôle au dernier administrateur de l'organisation : nommez d'abord un autre membre administrateur.";

/**
 * The organizations where this user is the only administrator (all of them, or only
 * `organizationUuid`), their administrators' links locked until the transaction ends. Account
 * deletion refuses a user who is one; removing or demoting that member is refused (409). In a
 * system-scope write transaction (withSystem).
 */
export async function organizationsWhereLastAdmin(tx: WriteTx, userUuid: string, organizationUuid?: string): Promise<{ uuid: string; title: string }[]> {
  return repo.organizationsWhereLastAdmin(tx, userUuid, organizationUuid);
}

/**
 * May the caller manage the members (or the logo, decision 042) of this organization? Unknown or invisible → 404 (with the
 * caller's own "not found" message, so a foreign id reads like an unknown one), visible but not
 * allowed → 403.
 */
export async function assertCanManageMembers(
  tx: ReadTx,
  ctx: AuthContext,
  organizationUuid: string,
  notFound = 'Organisation introuvable',
  forbidden = MEMBERS_ADMIN_ONLY_MESSAGE,
) {
  const organization = await repo.findOrganization(tx, organizationUuid);
  if (!organization) throw new NotFoundError(notFound);
  if (isRoot(ctx) || managesEnvironment(ctx, organization.environmentUuid)) return organization;
  const member = await repo.findLinkFor(tx, organizationUuid, ctx.userUuid);
  if (!member) throw new NotFoundError(notFound);
  // The role of this organization's link, not the current one's (decision 034); a superadmin
  // member stays an administrator wherever it is a member, as isAdmin says.
  if (member.role !== 'ADMIN' && !isSuperadmin(ctx)) throw new ForbiddenError(forbidden);
  return organization;
}

export async function listLinks(db: Database, ctx: AuthContext, query: z.output<typeof ListOrganizationUsersQuerySchema>) {
  const options = { search: query.search, limit: query.limit, offset: offsetOf(query.page, query.limit) };
  const { rows, total, manages } = await withSystem(db, async (tx) => {
    if (!query.organization) return { ...(await repo.listLinks(tx, { userUuid: ctx.userUuid }, options)), manages: false };
    const organization = await repo.findOrganization(tx, query.organization);
    const manages = organization !== null && (isRoot(ctx) || managesEnvironment(ctx, organization.environmentUuid));
    const visible = organization && (manages || (await repo.findLinkFor(tx, organization.uuid, ctx.userUuid)));
    if (!visible) throw new NotFoundError('Organisation introuvable');
    return { ...(await repo.listLinks(tx, { organizationUuid: organization.uuid }, options)), manages };
  });
  return toPage(
    rows.map((row) => toOrganizationUser(row, manages)),
    total,
    query.page,
    query.limit,
  );
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
    // A superadmin reaches the accounts of its environments and new ones, not another tenant's: those answer as unknown ids.
    const reachable = isRoot(ctx) ? await repo.userExists(tx, body.user) : await repo.userAttachableFrom(tx, body.user, ctx.environmentUuids);
    if (!reachable) throw new NotFoundError('Utilisateur introuvable');
    const uuid = await repo.insertLink(tx, body.organization, body.user);
    if (!uuid) throw new ConflictError("Cet utilisateur est déjà membre de l'organisation");
    return toOrganizationUser((await repo.findLink(tx, uuid))!);
  });
}

export const LINK_NOT_FOUND = "Lien d'organisation introuvable";

export async function deleteLink(db: Database, ctx: AuthContext, linkUuid: string) {
  await withSystem(db, async (tx) => {
    const link = await repo.findLink(tx, linkUuid);
    if (!link) throw new NotFoundError(LINK_NOT_FOUND);
    await assertCanManageMembers(tx, ctx, link.organizationUuid, LINK_NOT_FOUND);
    if (link.role === 'ADMIN' && (await repo.organizationsWhereLastAdmin(tx, link.user.uuid, link.organizationUuid)).length > 0) {
      throw new ConflictError(LAST_ADMIN_REMOVE_MESSAGE);
    }
    await repo.deleteLink(tx, linkUuid);
  });
}

/** An administrator changes a member's role in its organization (ADMIN or USER); never the last ADMIN to USER. */
export async function updateLinkRole(db: Database, ctx: AuthContext, linkUuid: string, role: MemberRole): Promise<OrganizationUser> {
  return withSystem(db, async (tx) => {
    const link = await repo.findLink(tx, linkUuid);
    if (!link) throw new NotFoundError(LINK_NOT_FOUND);
    await assertCanManageMembers(tx, ctx, link.organizationUuid, LINK_NOT_FOUND);
    if (link.role === role) return toOrganizationUser(link);
    if (role === 'USER' && (await repo.organizationsWhereLastAdmin(tx, link.user.uuid, link.organizationUuid)).length > 0) {
      throw new ConflictError(LAST_ADMIN_DEMOTE_MESSAGE);
    }
    await repo.updateLinkRole(tx, linkUuid, role);
    return toOrganizationUser({ ...link, role });
  });
}

/** For the demo seed and tests. */
export async function createOrganization(
  tx: WriteTx,
  values: { title: string; environmentUuid?: string | null; avatarUrl?: string | null; siren?: string | null; siret?: string | null; address?: string | null; fleetSize?: string | null },
) {
  return repo.insertOrganization(tx, values);
}
/** Links a user to an organization with a role (seed, tests, invitations, onboarding); null when already a member. */
export async function addMember(tx: WriteTx, organizationUuid: string, userUuid: string, role: MemberRole): Promise<string | null> {
  return repo.insertLink(tx, organizationUuid, userUuid, role);
}
