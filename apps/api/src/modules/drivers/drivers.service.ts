import type { CreateDriverBodySchema, Driver, ListDriversQuerySchema, UpdateDriverBodySchema } from '@flotte/contract';
import type { z } from 'zod';
import type { Database } from '../../db/client.js';
import { type ReadOptions, readPage } from '../../db/list-kit.js';
import { readTenant, withTenant } from '../../db/scope.js';
import { ForbiddenError, NotFoundError } from '../../errors.js';
import { type AuthContext, isAdmin, requireOrganization } from '../../lib/auth-context.js';
import * as repo from './drivers.repository.js';

const NOT_FOUND = 'Conducteur introuvable';

export function toDriver(row: repo.DriverRow): Driver {
  return {
    uuid: row.uuid,
    firstName: row.firstName,
    lastName: row.lastName,
    email: row.email,
    phone: row.phone,
    documents: [],
    isArchived: row.archivedAt !== null,
    archivedAt: row.archivedAt?.toISOString() ?? null,
    createdAt: row.createdAt.toISOString(),
  };
}

export function list(db: Database, ctx: AuthContext, query: z.output<typeof ListDriversQuerySchema>, options?: ReadOptions) {
  return readPage(db, requireOrganization(ctx), repo.driverList, query, toDriver, options);
}

export async function getOne(db: Database, ctx: AuthContext, uuid: string) {
  const row = await readTenant(db, requireOrganization(ctx), (tx) => repo.findDriver(tx, uuid));
  if (!row) throw new NotFoundError(NOT_FOUND);
  return toDriver(row);
}

export async function create(db: Database, ctx: AuthContext, body: z.output<typeof CreateDriverBodySchema>) {
  const organizationUuid = requireOrganization(ctx);
  const row = await withTenant(db, organizationUuid, (tx) =>
    repo.insertDriver(tx, organizationUuid, { firstName: body.firstName, lastName: body.lastName, email: body.email ?? null, phone: body.phone ?? null }),
  );
  return toDriver(row);
}

export async function update(db: Database, ctx: AuthContext, uuid: string, body: z.output<typeof UpdateDriverBodySchema>) {
  const row = await withTenant(db, requireOrganization(ctx), (tx) => repo.updateDriver(tx, uuid, body));
  if (!row) throw new NotFoundError(NOT_FOUND);
  return toDriver(row);
}

/** Soft delete: the driver leaves the active list; its claims keep pointing at it. */
export async function archive(db: Database, ctx: AuthContext, uuid: string) {
  const row = await withTenant(db, requireOrganization(ctx), async (tx) => {
    const current = await repo.findDriver(tx, uuid);
    if (!current) return null;
    return current.archivedAt ? current : repo.updateDriver(tx, uuid, { archivedAt: new Date() });
  });
  if (!row) throw new NotFoundError(NOT_FOUND);
  return toDriver(row);
}

export async function restore(db: Database, ctx: AuthContext, uuid: string) {
  const row = await withTenant(db, requireOrganization(ctx), (tx) => repo.updateDriver(tx, uuid, { archivedAt: null }));
  if (!row) throw new NotFoundError(NOT_FOUND);
  return toDriver(row);
}

/** Permanent deletion, for ADMIN and above. */
export async function hardDelete(db: Database, ctx: AuthContext, uuid: string) {
  const organizationUuid = requireOrganization(ctx);
  await withTenant(db, organizationUuid, async (tx) => {
    if (!(await repo.findDriver(tx, uuid))) throw new NotFoundError(NOT_FOUND);
    if (!isAdmin(ctx)) throw new ForbiddenError('Seul un administrateur peut supprimer définitivement un conducteur');
    await repo.deleteDriver(tx, uuid);
  });
}
