import { randomUUID } from 'node:crypto';
import type { Role } from '@flotte/contract';
import type { Tx } from '../db/scope.js';
import { users } from '../db/schema/users.js';
import { hashPassword } from '../lib/passwords.js';
import * as environmentsService from '../modules/environments/environments.service.js';
import * as organizationsService from '../modules/organizations/organizations.service.js';

/**
 * Builders shared by the demo seed and the tests. They run in a system transaction and take
 * only what differs from a sensible default.
 */

const hashes = new Map<string, Promise<string>>();
function cachedHash(password: string) {
  let hashed = hashes.get(password);
  if (!hashed) {
    hashed = hashPassword(password);
    hashes.set(password, hashed);
  }
  return hashed;
}

export const DEFAULT_TEST_PASSWORD = 'Motdepasse-tests-1';

export type UserInput = {
  email?: string;
  password?: string;
  firstName?: string;
  lastName?: string;
  roles?: Role[];
  description?: string | null;
  phone?: string | null;
  avatarUrl?: string | null;
};

export async function createUser(tx: Tx, input: UserInput = {}) {
  const email = input.email ?? `utilisateur-${randomUUID().slice(0, 8)}@exemple.fr`;
  const [row] = await tx
    .insert(users)
    .values({
      email,
      passwordHash: await cachedHash(input.password ?? DEFAULT_TEST_PASSWORD),
      firstName: input.firstName ?? 'Camille',
      lastName: input.lastName ?? 'Bernard',
      roles: input.roles ?? ['USER'],
      description: input.description ?? null,
      phone: input.phone ?? null,
      avatarUrl: input.avatarUrl ?? null,
    })
    .returning({ uuid: users.uuid, email: users.email });
  return row!;
}

export async function createEnvironment(
  tx: Tx,
  input: { title?: string; bookingUrl?: string | null; refererEmail?: string | null; tiers?: { title: string; startAt: Date }[] } = {},
) {
  const uuid = await environmentsService.createEnvironmentRecord(tx, {
    title: input.title ?? `Cabinet ${randomUUID().slice(0, 6)}`,
    bookingUrl: input.bookingUrl ?? null,
    refererEmail: input.refererEmail ?? null,
  });
  for (const tier of input.tiers ?? []) await environmentsService.addTier(tx, { environmentUuid: uuid, ...tier });
  return { uuid };
}

export async function createOrganization(tx: Tx, input: { title?: string; environmentUuid?: string | null } = {}) {
  const uuid = await organizationsService.createOrganization(tx, {
    title: input.title ?? `Société ${randomUUID().slice(0, 6)}`,
    environmentUuid: input.environmentUuid ?? null,
  });
  return { uuid };
}

export async function linkUser(tx: Tx, organizationUuid: string, userUuid: string) {
  const uuid = await organizationsService.addMember(tx, organizationUuid, userUuid);
  return { uuid: uuid! };
}

export async function attachToEnvironment(tx: Tx, environmentUuid: string, userUuid: string) {
  return { uuid: await environmentsService.attachUser(tx, environmentUuid, userUuid) };
}
