import { and, asc, count, eq, gt, inArray, isNull, or, type SQL, sql } from 'drizzle-orm';
import type { ReadTx, WriteTx } from '../../db/scope.js';
import { environments, environmentTiers, environmentUsers } from '../../db/schema/environments.js';
import { organizations } from '../../db/schema/organizations.js';
import { storedFiles } from '../../db/schema/stored-files.js';
import { vehicules } from '../../db/schema/vehicules.js';
import { users } from '../../db/schema/users.js';
import { containsFolded, frenchOrder } from '../../db/search.js';

// The database collates bytewise (C): order names the French way, accents and case folded.

export type EnvironmentValues = Partial<Omit<typeof environments.$inferInsert, 'uuid' | 'createdAt'>>;

export async function listEnvironments(
  tx: ReadTx,
  only: readonly string[] | 'all',
  options: { search?: string; limit: number; offset: number },
) {
  const conditions: (SQL | undefined)[] = [];
  if (only !== 'all') conditions.push(only.length > 0 ? inArray(environments.uuid, [...only]) : sql`false`);
  if (options.search) conditions.push(containsFolded(environments.title, options.search));
  const where = and(...conditions);
  // A joined subquery, not a correlated one in the select list: on a single-table select Drizzle
  // drops the table prefixes, and "environment_uuid = uuid" then compared organizations to themselves.
  const organizationCounts = tx
    .select({ environmentUuid: organizations.environmentUuid, organizationsCount: sql<number>`count(*)::int`.as('organizations_count') })
    .from(organizations)
    .groupBy(organizations.environmentUuid)
    .as('organization_counts');
  const [rows, [totalRow]] = await Promise.all([
    tx
      .select({
        uuid: environments.uuid,
        title: environments.title,
        refererEmail: environments.refererEmail,
        organizationsCount: sql<number>`coalesce(${organizationCounts.organizationsCount}, 0)`.mapWith(Number),
      })
      .from(environments)
      .leftJoin(organizationCounts, eq(organizationCounts.environmentUuid, environments.uuid))
      .where(where)
      .orderBy(frenchOrder(environments.title), asc(environments.title), asc(environments.uuid))
      .limit(options.limit)
      .offset(options.offset),
    tx.select({ total: count() }).from(environments).where(where),
  ]);
  return { rows, total: totalRow?.total ?? 0 };
}

export async function findEnvironmentsByUuid(tx: ReadTx, environmentUuids: readonly string[]) {
  if (environmentUuids.length === 0) return [];
  return tx.select().from(environments).where(inArray(environments.uuid, [...environmentUuids]));
}

export async function findEnvironment(tx: ReadTx, environmentUuid: string) {
  const [row] = await tx.select().from(environments).where(eq(environments.uuid, environmentUuid)).limit(1);
  return row ?? null;
}

const tierColumns = {
  uuid: environmentTiers.uuid,
  environmentUuid: environmentTiers.environmentUuid,
  title: environmentTiers.title,
  startAt: environmentTiers.startAt,
  endAt: environmentTiers.endAt,
  priceCents: environmentTiers.priceCents,
  includedOrganizations: environmentTiers.includedOrganizations,
  freeOrganizations: environmentTiers.freeOrganizations,
};
export type TierRow = {
  uuid: string;
  environmentUuid: string;
  title: string;
  startAt: Date;
  endAt: Date | null;
  priceCents: number;
  includedOrganizations: number;
  freeOrganizations: number;
};

/** The tiers of these environments, each environment's sorted by startAt. */
export async function findTiers(tx: ReadTx, environmentUuid: string | readonly string[]): Promise<TierRow[]> {
  const uuids = typeof environmentUuid === 'string' ? [environmentUuid] : [...environmentUuid];
  if (uuids.length === 0) return [];
  return tx
    .select(tierColumns)
    .from(environmentTiers)
    .where(inArray(environmentTiers.environmentUuid, uuids))
    .orderBy(asc(environmentTiers.environmentUuid), asc(environmentTiers.startAt), asc(environmentTiers.uuid));
}

export async function findTier(tx: ReadTx, environmentUuid: string, tierUuid: string): Promise<TierRow | null> {
  const [row] = await tx
    .select(tierColumns)
    .from(environmentTiers)
    .where(and(eq(environmentTiers.environmentUuid, environmentUuid), eq(environmentTiers.uuid, tierUuid)))
    .limit(1);
  return row ?? null;
}

export async function updateTier(tx: WriteTx, tierUuid: string, values: Partial<Omit<typeof environmentTiers.$inferInsert, 'uuid' | 'environmentUuid'>>) {
  if (Object.keys(values).length === 0) return;
  await tx.update(environmentTiers).set(values).where(eq(environmentTiers.uuid, tierUuid));
}

export async function deleteTier(tx: WriteTx, tierUuid: string) {
  await tx.delete(environmentTiers).where(eq(environmentTiers.uuid, tierUuid));
}

/** The superadmins attached to these environments (ROOT users who joined are not). */
export async function findSuperadmins(tx: ReadTx, environmentUuids: readonly string[]) {
  if (environmentUuids.length === 0) return [];
  return tx
    .select({ environmentUuid: environmentUsers.environmentUuid, uuid: users.uuid, firstName: users.firstName, lastName: users.lastName, email: users.email })
    .from(environmentUsers)
    .innerJoin(users, eq(users.uuid, environmentUsers.userUuid))
    .where(and(inArray(environmentUsers.environmentUuid, [...environmentUuids]), sql`'SUPERADMIN' = any(${users.roles})`))
    .orderBy(frenchOrder(users.lastName), frenchOrder(users.firstName), asc(users.uuid));
}

/** Per environment: vehicles in the fleet on `today` (not archived, not gone) and bytes of stored files. */
export async function findUsage(tx: ReadTx, environmentUuids: readonly string[], today: string) {
  if (environmentUuids.length === 0) return { vehicules: [], storage: [] };
  const uuids = [...environmentUuids];
  const [vehiculeRows, storageRows] = await Promise.all([
    tx
      .select({ environmentUuid: organizations.environmentUuid, n: sql<number>`count(*)::int`.mapWith(Number) })
      .from(vehicules)
      .innerJoin(organizations, eq(organizations.uuid, vehicules.organizationUuid))
      .where(and(inArray(organizations.environmentUuid, uuids), isNull(vehicules.archivedAt), or(isNull(vehicules.exitDate), gt(vehicules.exitDate, today))))
      .groupBy(organizations.environmentUuid),
    tx
      .select({ environmentUuid: organizations.environmentUuid, bytes: sql<number>`coalesce(sum(${storedFiles.sizeBytes}), 0)::bigint`.mapWith(Number) })
      .from(storedFiles)
      .innerJoin(organizations, eq(organizations.uuid, storedFiles.organizationUuid))
      .where(inArray(organizations.environmentUuid, uuids))
      .groupBy(organizations.environmentUuid),
  ]);
  return { vehicules: vehiculeRows, storage: storageRows };
}

export async function findEnvironmentUsers(tx: ReadTx, environmentUuid: string) {
  return tx
    .select({
      uuid: environmentUsers.uuid,
      user: { uuid: users.uuid, firstName: users.firstName, lastName: users.lastName, email: users.email },
    })
    .from(environmentUsers)
    .innerJoin(users, eq(users.uuid, environmentUsers.userUuid))
    .where(eq(environmentUsers.environmentUuid, environmentUuid))
    .orderBy(frenchOrder(users.lastName), frenchOrder(users.firstName), asc(environmentUsers.uuid));
}

/** The environment's superadmin shown in the support dialog (the first attached, if several). */
export async function findSuperadmin(tx: ReadTx, environmentUuid: string) {
  const [row] = await tx
    .select({
      avatarUrl: users.avatarUrl,
      firstName: users.firstName,
      lastName: users.lastName,
      description: users.description,
      phone: users.phone,
    })
    .from(environmentUsers)
    .innerJoin(users, eq(users.uuid, environmentUsers.userUuid))
    .where(and(eq(environmentUsers.environmentUuid, environmentUuid), sql`'SUPERADMIN' = any(${users.roles})`))
    .orderBy(asc(environmentUsers.createdAt))
    .limit(1);
  return row ?? null;
}

export async function insertEnvironment(tx: WriteTx, values: EnvironmentValues & { title: string }) {
  const [row] = await tx.insert(environments).values(values).returning({ uuid: environments.uuid });
  return row!.uuid;
}

export async function updateEnvironment(tx: WriteTx, environmentUuid: string, values: EnvironmentValues) {
  if (Object.keys(values).length === 0) return;
  await tx.update(environments).set(values).where(eq(environments.uuid, environmentUuid));
}

/** The new tier's uuid, or null when the environment already has a tier starting then (unique index). */
export async function insertTier(tx: WriteTx, values: typeof environmentTiers.$inferInsert): Promise<string | null> {
  const [row] = await tx.insert(environmentTiers).values(values).onConflictDoNothing().returning({ uuid: environmentTiers.uuid });
  return row?.uuid ?? null;
}

export async function findEnvironmentUser(tx: ReadTx, environmentUuid: string, userUuid: string) {
  const [row] = await tx
    .select({ uuid: environmentUsers.uuid })
    .from(environmentUsers)
    .where(and(eq(environmentUsers.environmentUuid, environmentUuid), eq(environmentUsers.userUuid, userUuid)))
    .limit(1);
  return row ?? null;
}

export async function insertEnvironmentUser(tx: WriteTx, environmentUuid: string, userUuid: string) {
  await tx.insert(environmentUsers).values({ environmentUuid, userUuid }).onConflictDoNothing();
  return (await findEnvironmentUser(tx, environmentUuid, userUuid))!.uuid;
}

export async function deleteEnvironmentUser(tx: WriteTx, environmentUserUuid: string) {
  await tx.delete(environmentUsers).where(eq(environmentUsers.uuid, environmentUserUuid));
}
