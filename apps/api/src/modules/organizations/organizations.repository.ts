import { and, asc, count, eq, inArray, type SQL, sql } from 'drizzle-orm';
import type { ReadTx, WriteTx } from '../../db/scope.js';
import { environments } from '../../db/schema/environments.js';
import { organizations, organizationUsers } from '../../db/schema/organizations.js';
import { users } from '../../db/schema/users.js';
import { containsFolded, frenchOrder, likePattern } from '../../db/search.js';

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
  },
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
    const pattern = likePattern(options.search);
    conditions.push(
      sql`(f_unaccent(${organizations.title}) ilike f_unaccent(${pattern}) or f_unaccent(${users.firstName} || ' ' || ${users.lastName}) ilike f_unaccent(${pattern}) or ${users.email} ilike ${pattern})`,
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
    .select({ uuid: organizationUsers.uuid })
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

export async function insertLink(tx: WriteTx, organizationUuid: string, userUuid: string) {
  const [row] = await tx
    .insert(organizationUsers)
    .values({ organizationUuid, userUuid })
    .onConflictDoNothing()
    .returning({ uuid: organizationUsers.uuid });
  return row?.uuid ?? null;
}

export async function deleteLink(tx: WriteTx, linkUuid: string) {
  await tx.delete(organizationUsers).where(eq(organizationUsers.uuid, linkUuid));
}

export async function userExists(tx: ReadTx, userUuid: string) {
  const [row] = await tx.select({ uuid: users.uuid }).from(users).where(eq(users.uuid, userUuid)).limit(1);
  return Boolean(row);
}
