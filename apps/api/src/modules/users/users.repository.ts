import { and, eq, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Role } from '@flotte/contract';
import type { ReadTx, WriteTx } from '../../db/scope.js';
import { frenchOrder } from '../../db/search.js';
import { environments, environmentUsers } from '../../db/schema/environments.js';
import { organizations, organizationUsers } from '../../db/schema/organizations.js';
import { refreshTokens, users } from '../../db/schema/users.js';

const orgEnvironment = alias(environments, 'org_environment');
const userEnvironment = alias(environments, 'user_environment');

export async function findCredentialsByEmail(tx: ReadTx, email: string) {
  const [row] = await tx
    .select({ uuid: users.uuid, passwordHash: users.passwordHash, emailConfirmedAt: users.emailConfirmedAt })
    .from(users)
    .where(sql`lower(${users.email}) = lower(${email})`)
    .limit(1);
  return row ?? null;
}

export async function findPasswordHash(tx: ReadTx, userUuid: string) {
  const [row] = await tx.select({ email: users.email, passwordHash: users.passwordHash }).from(users).where(eq(users.uuid, userUuid)).limit(1);
  return row ?? null;
}

export async function updatePasswordHash(tx: WriteTx, userUuid: string, passwordHash: string) {
  await tx.update(users).set({ passwordHash, updatedAt: new Date() }).where(eq(users.uuid, userUuid));
}

export async function findProfile(tx: ReadTx, userUuid: string) {
  const [row] = await tx
    .select({
      user: users,
      organizationUser: { uuid: organizationUsers.uuid, role: organizationUsers.role },
      organization: {
        uuid: organizations.uuid,
        title: organizations.title,
        avatarUrl: organizations.avatarUrl,
      },
      organizationEnvironment: { uuid: orgEnvironment.uuid, title: orgEnvironment.title },
      environmentUser: { uuid: environmentUsers.uuid },
      environment: { uuid: userEnvironment.uuid, title: userEnvironment.title },
    })
    .from(users)
    .leftJoin(organizationUsers, eq(organizationUsers.uuid, users.currentOrganizationUserUuid))
    .leftJoin(organizations, eq(organizations.uuid, organizationUsers.organizationUuid))
    .leftJoin(orgEnvironment, eq(orgEnvironment.uuid, organizations.environmentUuid))
    .leftJoin(environmentUsers, eq(environmentUsers.uuid, users.currentEnvironmentUserUuid))
    .leftJoin(userEnvironment, eq(userEnvironment.uuid, environmentUsers.environmentUuid))
    .where(eq(users.uuid, userUuid))
    .limit(1);
  return row ?? null;
}
export type ProfileRow = NonNullable<Awaited<ReturnType<typeof findProfile>>>;

/**
 * A session is live while its refresh-token family holds tokens of this user and none of them
 * is revoked (logout, password change, reuse of a rotated token revoke the whole family).
 */
const sessionIsLive = (sessionUuid: string) =>
  sql<boolean>`coalesce((select bool_and(${refreshTokens.revokedAt} is null) from ${refreshTokens} where ${refreshTokens.family} = ${sessionUuid} and ${refreshTokens.userUuid} = ${users.uuid}), false)`;

/**
 * The caller's roles, current organization and environments; with a session, only while that
 * session is live (the same statement: no second round trip, decision 014).
 */
export async function findContext(tx: ReadTx, userUuid: string, sessionUuid?: string) {
  const [row] = await tx
    .select({
      uuid: users.uuid,
      roles: users.roles,
      organizationUserUuid: users.currentOrganizationUserUuid,
      organizationUuid: organizationUsers.organizationUuid,
      memberRole: organizationUsers.role,
      environmentUuids: sql<string[]>`coalesce((select array_agg(${environmentUsers.environmentUuid}) from ${environmentUsers} where ${environmentUsers.userUuid} = ${users.uuid}), '{}')`,
    })
    .from(users)
    .leftJoin(organizationUsers, eq(organizationUsers.uuid, users.currentOrganizationUserUuid))
    .where(sessionUuid === undefined ? eq(users.uuid, userUuid) : and(eq(users.uuid, userUuid), sessionIsLive(sessionUuid)))
    .limit(1);
  return row ? { ...row, roles: row.roles as Role[] } : null;
}

export async function findOrganizationLink(tx: ReadTx, linkUuid: string) {
  const [row] = await tx
    .select({ uuid: organizationUsers.uuid, userUuid: organizationUsers.userUuid, organizationUuid: organizationUsers.organizationUuid })
    .from(organizationUsers)
    .where(eq(organizationUsers.uuid, linkUuid))
    .limit(1);
  return row ?? null;
}

export async function findFirstOrganizationLink(tx: ReadTx, userUuid: string) {
  const [row] = await tx
    .select({ uuid: organizationUsers.uuid })
    .from(organizationUsers)
    .innerJoin(organizations, eq(organizations.uuid, organizationUsers.organizationUuid))
    .where(eq(organizationUsers.userUuid, userUuid))
    .orderBy(frenchOrder(organizations.title))
    .limit(1);
  return row ?? null;
}

export async function findFirstEnvironmentLink(tx: ReadTx, userUuid: string) {
  const [row] = await tx
    .select({ uuid: environmentUsers.uuid })
    .from(environmentUsers)
    .where(eq(environmentUsers.userUuid, userUuid))
    .orderBy(environmentUsers.createdAt)
    .limit(1);
  return row ?? null;
}

export type UserPatch = Partial<
  Pick<typeof users.$inferInsert, 'firstName' | 'lastName' | 'phone' | 'description' | 'currentOrganizationUserUuid' | 'currentEnvironmentUserUuid'>
>;

export async function updateUser(tx: WriteTx, userUuid: string, patch: UserPatch) {
  await tx
    .update(users)
    .set({ ...patch, updatedAt: new Date() })
    .where(and(eq(users.uuid, userUuid)));
}

export async function setCguAccepted(tx: WriteTx, userUuid: string, version: string) {
  await tx.update(users).set({ cguAcceptedVersion: version, cguAcceptedAt: new Date(), updatedAt: new Date() }).where(eq(users.uuid, userUuid));
}
