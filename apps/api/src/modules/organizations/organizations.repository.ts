import { and, asc, count, eq, exists, inArray, notExists, or, type SQL, sql } from 'drizzle-orm';
import type { MemberRole } from '@flotte/contract';
import type { ReadTx, WriteTx } from '../../db/scope.js';
import { environments, environmentUsers } from '../../db/schema/environments.js';
import { organizations, organizationUsers } from '../../db/schema/organizations.js';
import { users, userTotp } from '../../db/schema/users.js';
import { containsFolded, frenchOrder } from '../../db/search.js';

// The database collates bytewise (C): order names the French way, accents and case folded.

const organizationColumns = {
  uuid: organizations.uuid,
  title: organizations.title,
  avatarUrl: organizations.avatarUrl,
  environmentUuid: environments.uuid,
  environmentTitle: environments.title,
};
export type OrganizationRow = { uuid: string; title: string; avatarUrl: string | null; environmentUuid: string | null; environmentTitle: string | null };

export type OrganizationFilter =
  | { kind: 'all' }
  | { kind: 'visibleTo'; userUuid: string; environmentUuids: readonly string[] }
  | { kind: 'environments'; environmentUuids: readonly string[] };

function filterCondition(filter: OrganizationFilter, search: string | undefined): SQL | undefined {
  const conditions: (SQL | undefined)[] = [];
  if (filter.kind === 'visibleTo') {
    const linked = sql`${organizations.uuid} in (select ${organizationUsers.organizationUuid} from ${organizationUsers} where ${organizationUsers.userUuid} = ${filter.userUuid})`;
    conditions.push(
      filter.environmentUuids.length > 0
        ? sql`(${linked} or ${inArray(organizations.environmentUuid, [...filter.environmentUuids])})`
        : linked,
    );
  } else if (filter.kind === 'environments') {
    conditions.push(
      filter.environmentUuids.length > 0 ? inArray(organizations.environmentUuid, [...filter.environmentUuids]) : sql`false`,
    );
  }
  if (search) conditions.push(containsFolded(organizations.title, search));
  return and(...conditions);
}

export async function listOrganizations(
  tx: ReadTx,
  filter: OrganizationFilter,
  options: { search?: string; limit: number; offset: number },
) {
  const where = filterCondition(filter, options.search);
  const [rows, [totalRow]] = await Promise.all([
    tx
      .select(organizationColumns)
      .from(organizations)
      .leftJoin(environments, eq(environments.uuid, organizations.environmentUuid))
      .where(where)
      .orderBy(frenchOrder(organizations.title), asc(organizations.title), asc(organizations.uuid))
      .limit(options.limit)
      .offset(options.offset),
    tx.select({ total: count() }).from(organizations).where(where),
  ]);
  return { rows: rows as OrganizationRow[], total: totalRow?.total ?? 0 };
}

export async function findOrganization(tx: ReadTx, organizationUuid: string): Promise<OrganizationRow | null> {
  const [row] = await tx
    .select(organizationColumns)
    .from(organizations)
    .leftJoin(environments, eq(environments.uuid, organizations.environmentUuid))
    .where(eq(organizations.uuid, organizationUuid))
    .limit(1);
  return (row as OrganizationRow | undefined) ?? null;
}

export async function insertOrganization(tx: WriteTx, values: typeof organizations.$inferInsert) {
  const [row] = await tx.insert(organizations).values(values).returning({ uuid: organizations.uuid });
  return row!.uuid;
}

const linkColumns = {
  uuid: organizationUsers.uuid,
  organizationUuid: organizationUsers.organizationUuid,
  user: {
    uuid: users.uuid,
    firstName: users.firstName,
    lastName: users.lastName,
    email: users.email,
    avatarUrl: users.avatarUrl,
    roles: users.roles,
    /** Signs in with a code (decision 035): shown to those who may reset it. */
    twoFactor: sql<boolean>`exists (select 1 from ${userTotp} where ${userTotp.userUuid} = ${users.uuid} and ${userTotp.enabledAt} is not null)`,
  },
  role: organizationUsers.role,
};

export async function listLinks(
  tx: ReadTx,
  by: { userUuid: string } | { organizationUuid: string },
  options: { search?: string; limit: number; offset: number },
) {
  const conditions: (SQL | undefined)[] = [
    'userUuid' in by ? eq(organizationUsers.userUuid, by.userUuid) : eq(organizationUsers.organizationUuid, by.organizationUuid),
  ];
  if (options.search) {
    conditions.push(
      sql`(${containsFolded(organizations.title, options.search)} or ${containsFolded(sql`${users.firstName} || ' ' || ${users.lastName}`, options.search)} or ${containsFolded(users.email, options.search)})`,
    );
  }
  const where = and(...conditions);
  const base = () =>
    tx
      .select({ ...linkColumns, organization: organizationColumns })
      .from(organizationUsers)
      .innerJoin(organizations, eq(organizations.uuid, organizationUsers.organizationUuid))
      .leftJoin(environments, eq(environments.uuid, organizations.environmentUuid))
      .innerJoin(users, eq(users.uuid, organizationUsers.userUuid));
  const [rows, [totalRow]] = await Promise.all([
    base()
      .where(where)
      .orderBy(frenchOrder(organizations.title), asc(organizations.uuid), frenchOrder(users.lastName), asc(users.lastName), asc(organizationUsers.uuid))
      .limit(options.limit)
      .offset(options.offset),
    tx
      .select({ total: count() })
      .from(organizationUsers)
      .innerJoin(organizations, eq(organizations.uuid, organizationUsers.organizationUuid))
      .innerJoin(users, eq(users.uuid, organizationUsers.userUuid))
      .where(where),
  ]);
  return { rows, total: totalRow?.total ?? 0 };
}
export type LinkRow = Awaited<ReturnType<typeof listLinks>>['rows'][number];

export async function findLink(tx: ReadTx, linkUuid: string) {
  const [row] = await tx
    .select({ ...linkColumns, organization: organizationColumns })
    .from(organizationUsers)
    .innerJoin(organizations, eq(organizations.uuid, organizationUsers.organizationUuid))
    .leftJoin(environments, eq(environments.uuid, organizations.environmentUuid))
    .innerJoin(users, eq(users.uuid, organizationUsers.userUuid))
    .where(eq(organizationUsers.uuid, linkUuid))
    .limit(1);
  return row ?? null;
}

export async function findLinkFor(tx: ReadTx, organizationUuid: string, userUuid: string) {
  const [row] = await tx
    .select({ uuid: organizationUsers.uuid, role: organizationUsers.role })
    .from(organizationUsers)
    .where(and(eq(organizationUsers.organizationUuid, organizationUuid), eq(organizationUsers.userUuid, userUuid)))
    .limit(1);
  return row ?? null;
}

export async function hasLinkInEnvironment(tx: ReadTx, userUuid: string, environmentUuid: string) {
  const [row] = await tx
    .select({ uuid: organizationUsers.uuid })
    .from(organizationUsers)
    .innerJoin(organizations, eq(organizations.uuid, organizationUsers.organizationUuid))
    .where(and(eq(organizationUsers.userUuid, userUuid), eq(organizations.environmentUuid, environmentUuid)))
    .limit(1);
  return Boolean(row);
}

export async function insertLink(tx: WriteTx, organizationUuid: string, userUuid: string, role: MemberRole = 'USER') {
  const [row] = await tx
    .insert(organizationUsers)
    .values({ organizationUuid, userUuid, role })
    .onConflictDoNothing()
    .returning({ uuid: organizationUsers.uuid });
  return row?.uuid ?? null;
}

export async function updateLinkRole(tx: WriteTx, linkUuid: string, role: MemberRole) {
  await tx.update(organizationUsers).set({ role }).where(eq(organizationUsers.uuid, linkUuid));
}

/**
 * The organizations (all of the user's, or only `organizationUuid`) where the user is the only
 * ADMIN member. The administrators' links of those organizations are locked first (FOR UPDATE)
 * until the caller's transaction ends: of two administrators demoting or removing each other at
 * the same time, the second sees the first's change and is refused.
 */
export async function organizationsWhereLastAdmin(tx: WriteTx, userUuid: string, organizationUuid?: string) {
  const own = organizationUuid === undefined ? sql`true` : sql`ou.organization_uuid = ${organizationUuid}`;
  await tx.execute(sql`
    SELECT a.uuid FROM organization_users a
    WHERE a.role = 'ADMIN' AND a.organization_uuid IN (
      SELECT ou.organization_uuid FROM organization_users ou WHERE ou.user_uuid = ${userUuid} AND ou.role = 'ADMIN' AND ${own})
    ORDER BY a.uuid FOR UPDATE`);
  const rows = await tx
    .select({ uuid: organizations.uuid, title: organizations.title })
    .from(organizationUsers)
    .innerJoin(organizations, eq(organizations.uuid, organizationUsers.organizationUuid))
    .where(
      and(
        eq(organizationUsers.userUuid, userUuid),
        eq(organizationUsers.role, 'ADMIN'),
        organizationUuid === undefined ? undefined : eq(organizationUsers.organizationUuid, organizationUuid),
        sql`not exists (select 1 from ${organizationUsers} other where other.organization_uuid = ${organizationUsers.organizationUuid} and other.role = 'ADMIN' and other.user_uuid <> ${userUuid})`,
      ),
    )
    .orderBy(frenchOrder(organizations.title), asc(organizations.uuid));
  return rows;
}

export async function deleteLink(tx: WriteTx, linkUuid: string) {
  await tx.delete(organizationUsers).where(eq(organizationUsers.uuid, linkUuid));
}

export async function userExists(tx: ReadTx, userUuid: string) {
  const [row] = await tx.select({ uuid: users.uuid }).from(users).where(eq(users.uuid, userUuid)).limit(1);
  return Boolean(row);
}

/**
 * Whether a superadmin of `environmentUuids` may attach this account: one in none of them is
 * another tenant's (a member of another organization, attached to another environment) and does
 * not exist for it; an account of no organization and no environment yet (a new signup) is free.
 */
export async function userAttachableFrom(tx: ReadTx, userUuid: string, environmentUuids: readonly string[]) {
  const managed = [...environmentUuids];
  const one = { one: sql`1` };
  const inOrganization = tx.select(one).from(organizationUsers).where(eq(organizationUsers.userUuid, users.uuid));
  const inEnvironment = tx.select(one).from(environmentUsers).where(eq(environmentUsers.userUuid, users.uuid));
  const [row] = await tx
    .select({ uuid: users.uuid })
    .from(users)
    .where(
      and(
        eq(users.uuid, userUuid),
        or(
          and(notExists(inOrganization), notExists(inEnvironment)),
          exists(
            tx
              .select(one)
              .from(organizationUsers)
              .innerJoin(organizations, eq(organizations.uuid, organizationUsers.organizationUuid))
              .where(and(eq(organizationUsers.userUuid, users.uuid), inArray(organizations.environmentUuid, managed))),
          ),
          exists(tx.select(one).from(environmentUsers).where(and(eq(environmentUsers.userUuid, users.uuid), inArray(environmentUsers.environmentUuid, managed)))),
        ),
      ),
    )
    .limit(1);
  return Boolean(row);
}
