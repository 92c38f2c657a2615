import { type Environment, LOGO_HEIGHT, LOGO_MAX_BYTES, LOGO_WIDTH, type Organization } from '@flotte/contract';
import { eq } from 'drizzle-orm';
import type { Database } from '../../db/client.js';
import { environments } from '../../db/schema/environments.js';
import { organizations } from '../../db/schema/organizations.js';
import { readSystem, withSystem, type ReadTx } from '../../db/scope.js';
import { NotFoundError } from '../../errors.js';
import { type AuthContext, managesEnvironment } from '../../lib/auth-context.js';
import { imageTooLargeMessage, publicImages } from '../../platform/images/public-images.js';
import type { ObjectStorage } from '../../platform/storage/storage.js';
import * as environmentsService from '../environments/environments.service.js';
import * as organizationsService from '../organizations/organizations.service.js';

/**
 * Logos (decision 042): an organization's (its ADMINs, the superadmins of its environment, ROOT)
 * and an environment's (its superadmins, ROOT). A WebP that fits inside LOGO_WIDTH × LOGO_HEIGHT,
 * its ratio and transparency kept, at a versioned public URL (the avatar's machinery).
 */

export type LogoDeps = { db: Database; storage: ObjectStorage };

export const LOGO_TOO_LARGE_MESSAGE = imageTooLargeMessage(LOGO_MAX_BYTES);
export const LOGO_ADMIN_ONLY_MESSAGE = 'Seul un administrateur de l’organisation peut changer son logo';
const ORGANIZATION_NOT_FOUND = 'Organisation introuvable';
const ENVIRONMENT_NOT_FOUND = 'Environnement introuvable';

const shape = { width: LOGO_WIDTH, height: LOGO_HEIGHT, fit: 'inside' } as const;

export const organizationLogos = publicImages({
  urlPrefix: (uuid) => `/api/organization/${uuid}/logo/`,
  folder: (uuid) => `logos/organizations/${uuid}`,
  shape,
});

export const environmentLogos = publicImages({
  urlPrefix: (uuid) => `/api/environment/${uuid}/logo/`,
  folder: (uuid) => `logos/environments/${uuid}`,
  shape,
});

// ---------------------------------------------------------------- organization

const canChangeOrganizationLogo = (tx: ReadTx, ctx: AuthContext, organizationUuid: string) =>
  organizationsService.assertCanManageMembers(tx, ctx, organizationUuid, ORGANIZATION_NOT_FOUND, LOGO_ADMIN_ONLY_MESSAGE);

async function organizationOf(db: Database, organizationUuid: string): Promise<Organization> {
  const organization = await readSystem(db, (tx) => organizationsService.findOrganization(tx, organizationUuid));
  if (!organization) throw new NotFoundError(ORGANIZATION_NOT_FOUND);
  return organization;
}

/** Replaces the organization's logo (checked before the image is even decoded). */
export async function setOrganizationLogo(deps: LogoDeps, ctx: AuthContext, organizationUuid: string, input: Buffer): Promise<Organization> {
  await readSystem(deps.db, (tx) => canChangeOrganizationLogo(tx, ctx, organizationUuid));
  await organizationLogos.replace(deps.storage, organizationUuid, input, (url) =>
    withSystem(deps.db, async (tx) => {
      await canChangeOrganizationLogo(tx, ctx, organizationUuid);
      const [row] = await tx.select({ url: organizations.avatarUrl }).from(organizations).where(eq(organizations.uuid, organizationUuid)).for('update');
      if (!row) throw new NotFoundError(ORGANIZATION_NOT_FOUND);
      await tx.update(organizations).set({ avatarUrl: url }).where(eq(organizations.uuid, organizationUuid));
      return { previous: row.url, result: undefined };
    }),
  );
  return organizationOf(deps.db, organizationUuid);
}

export async function removeOrganizationLogo(deps: LogoDeps, ctx: AuthContext, organizationUuid: string): Promise<Organization> {
  const previous = await withSystem(deps.db, async (tx) => {
    await canChangeOrganizationLogo(tx, ctx, organizationUuid);
    const [row] = await tx.select({ url: organizations.avatarUrl }).from(organizations).where(eq(organizations.uuid, organizationUuid)).for('update');
    await tx.update(organizations).set({ avatarUrl: null }).where(eq(organizations.uuid, organizationUuid));
    return row?.url ?? null;
  });
  await organizationLogos.discard(deps.storage, organizationUuid, previous);
  return organizationOf(deps.db, organizationUuid);
}

export async function openOrganizationLogo(deps: LogoDeps, organizationUuid: string, version: string) {
  const [row] = await readSystem(deps.db, (tx) => tx.select({ url: organizations.avatarUrl }).from(organizations).where(eq(organizations.uuid, organizationUuid)));
  const image = await organizationLogos.open(deps.storage, organizationUuid, version, row?.url);
  if (!image) throw new NotFoundError('Image introuvable');
  return image;
}

// ---------------------------------------------------------------- environment

function assertManages(ctx: AuthContext, environmentUuid: string) {
  if (!managesEnvironment(ctx, environmentUuid)) throw new NotFoundError(ENVIRONMENT_NOT_FOUND);
}

export async function setEnvironmentLogo(deps: LogoDeps, ctx: AuthContext, environmentUuid: string, input: Buffer): Promise<Environment> {
  assertManages(ctx, environmentUuid);
  await environmentLogos.replace(deps.storage, environmentUuid, input, (url) =>
    withSystem(deps.db, async (tx) => {
      const [row] = await tx.select({ url: environments.logoUrl }).from(environments).where(eq(environments.uuid, environmentUuid)).for('update');
      if (!row) throw new NotFoundError(ENVIRONMENT_NOT_FOUND);
      await tx.update(environments).set({ logoUrl: url }).where(eq(environments.uuid, environmentUuid));
      return { previous: row.url, result: undefined };
    }),
  );
  return environmentsService.getOne(deps.db, ctx, environmentUuid);
}

export async function removeEnvironmentLogo(deps: LogoDeps, ctx: AuthContext, environmentUuid: string): Promise<Environment> {
  assertManages(ctx, environmentUuid);
  const previous = await withSystem(deps.db, async (tx) => {
    const [row] = await tx.select({ url: environments.logoUrl }).from(environments).where(eq(environments.uuid, environmentUuid)).for('update');
    if (!row) throw new NotFoundError(ENVIRONMENT_NOT_FOUND);
    await tx.update(environments).set({ logoUrl: null }).where(eq(environments.uuid, environmentUuid));
    return row.url;
  });
  await environmentLogos.discard(deps.storage, environmentUuid, previous);
  return environmentsService.getOne(deps.db, ctx, environmentUuid);
}

export async function openEnvironmentLogo(deps: LogoDeps, environmentUuid: string, version: string) {
  const [row] = await readSystem(deps.db, (tx) => tx.select({ url: environments.logoUrl }).from(environments).where(eq(environments.uuid, environmentUuid)));
  const image = await environmentLogos.open(deps.storage, environmentUuid, version, row?.url);
  if (!image) throw new NotFoundError('Image introuvable');
  return image;
}
