import type { UpdateUserBodySchema, User } from '@flotte/contract';
import type { z } from 'zod';
import type { Database } from '../../db/client.js';
import { readSystem, withSystem, type WriteTx } from '../../db/scope.js';
import { NotFoundError } from '../../errors.js';
import { type AuthContext, effectiveRoles, isRoot, managesEnvironment } from '../../lib/auth-context.js';
import type { TokenSubject } from '../../lib/tokens.js';
import { findOrganizationEnvironment } from '../organizations/organizations.service.js';
import * as repo from './users.repository.js';

function toUser(row: repo.ProfileRow): User {
  const { user, organizationUser, organization, organizationEnvironment, environmentUser, environment } = row;
  return {
    uuid: user.uuid,
    email: user.email,
    firstName: user.firstName,
    lastName: user.lastName,
    roles: effectiveRoles(user.roles, organizationUser?.role),
    avatar: user.avatarUrl ? { url: user.avatarUrl } : null,
    description: user.description,
    phone: user.phone,
    currentOrganizationUser:
      organizationUser && organization
        ? {
            uuid: organizationUser.uuid,
            organization: {
              uuid: organization.uuid,
              title: organization.title,
              avatar: organization.avatarUrl ? { url: organization.avatarUrl } : null,
              environment: organizationEnvironment,
              subscription: null,
            },
          }
        : null,
    currentEnvironmentUser: environmentUser && environment ? { uuid: environmentUser.uuid, environment } : null,
    cguAcceptedVersion: user.cguAcceptedVersion,
    onboardingStep: user.onboardingStep as User['onboardingStep'],
  };
}

export async function getProfile(db: Database, userUuid: string): Promise<User> {
  const row = await withSystem(db, (tx) => repo.findProfile(tx, userUuid));
  if (!row) throw new NotFoundError('Utilisateur introuvable');
  return toUser(row);
}

/** The caller's context, or null when the user is gone or the session has ended. */
export async function loadContext(db: Database, subject: TokenSubject): Promise<AuthContext | null> {
  const row = await readSystem(db, (tx) => repo.findContext(tx, subject.userUuid, subject.sessionUuid));
  if (!row) return null;
  return {
    userUuid: row.uuid,
    sessionUuid: subject.sessionUuid,
    roles: effectiveRoles(row.roles, row.memberRole),
    organizationUuid: row.organizationUuid,
    organizationUserUuid: row.organizationUserUuid,
    environmentUuids: row.environmentUuids,
  };
}

export async function findCredentials(db: Database, email: string) {
  return withSystem(db, (tx) => repo.findCredentialsByEmail(tx, email));
}

/** The user's email (the login limits' account key) and password hash. */
export async function findOwnCredentials(db: Database, userUuid: string) {
  return readSystem(db, (tx) => repo.findPasswordHash(tx, userUuid));
}

/** Inside the auth service's transaction, which also ends the user's sessions. */
export async function setPasswordHash(tx: WriteTx, userUuid: string, passwordHash: string) {
  await repo.updatePasswordHash(tx, userUuid, passwordHash);
}

/** After login: a user with links but no current organization lands in its first one. */
export async function ensureCurrentScope(db: Database, userUuid: string): Promise<void> {
  await withSystem(db, async (tx) => {
    const ctx = await repo.findContext(tx, userUuid);
    if (!ctx) return;
    const patch: repo.UserPatch = {};
    if (!ctx.organizationUserUuid) {
      const link = await repo.findFirstOrganizationLink(tx, userUuid);
      if (link) patch.currentOrganizationUserUuid = link.uuid;
    }
    const profile = await repo.findProfile(tx, userUuid);
    if (profile && !profile.user.currentEnvironmentUserUuid) {
      const envLink = await repo.findFirstEnvironmentLink(tx, userUuid);
      if (envLink) patch.currentEnvironmentUserUuid = envLink.uuid;
    }
    if (Object.keys(patch).length > 0) await repo.updateUser(tx, userUuid, patch);
  });
}

/**
 * A user edits itself only. Switching organization goes through an organization link: its own,
 * or any link of an organization whose environment it manages (superadmin) or anything (ROOT).
 */
export async function updateSelf(
  db: Database,
  ctx: AuthContext,
  targetUuid: string,
  body: z.output<typeof UpdateUserBodySchema>,
): Promise<User> {
  if (targetUuid !== ctx.userUuid) throw new NotFoundError('Utilisateur introuvable');
  await withSystem(db, async (tx) => {
    const { currentOrganizationUser, ...fields } = body;
    const patch: repo.UserPatch = { ...fields };
    if (currentOrganizationUser !== undefined) {
      const link = await repo.findOrganizationLink(tx, currentOrganizationUser);
      if (!link) throw new NotFoundError('Organisation introuvable');
      if (link.userUuid !== ctx.userUuid && !isRoot(ctx)) {
        const environmentUuid = await findOrganizationEnvironment(tx, link.organizationUuid);
        if (!managesEnvironment(ctx, environmentUuid)) throw new NotFoundError('Organisation introuvable');
      }
      patch.currentOrganizationUserUuid = link.uuid;
    }
    await repo.updateUser(tx, ctx.userUuid, patch);
  });
  return getProfile(db, ctx.userUuid);
}

/** The environment link the user works in (set by the environment service on join / quit). */
export async function setCurrentEnvironmentUser(tx: WriteTx, userUuid: string, environmentUserUuid: string | null) {
  await repo.updateUser(tx, userUuid, { currentEnvironmentUserUuid: environmentUserUuid });
}

/** The user accepts the terms of use in force (issue 15): their version and the time are kept. */
export async function acceptCgu(db: Database, userUuid: string, version: string): Promise<User> {
  await withSystem(db, (tx) => repo.setCguAccepted(tx, userUuid, version));
  return getProfile(db, userUuid);
}
