import { DUPLICATE_DRIVER_DETAIL, type CreateDriverBodySchema, type Driver, type DriverChoice, type ListDriverChoicesQuerySchema, type UpdateDriverBodySchema } from '@flotte/contract';
import type { z } from 'zod';
import type { Database } from '../../db/client.js';
import { type ReadOptions, readPage } from '../../db/list-kit.js';
import { insertRecord, updateRecord } from '../../db/records.js';
import { withTenant } from '../../db/scope.js';
import { ConflictError, NotFoundError } from '../../errors.js';
import { type AuthContext, requireOrganization } from '../../lib/auth-context.js';
import { registerService } from '../../lib/register-service.js';
import { eraseFromActivityLog } from '../audit-log/audit-log-erasure.js';
import { purgeEntityDocuments, recordsWithDocuments } from '../documents/documents.service.js';
import type { EntityFileRef } from '../documents/entity-files.js';
import { type DriverChoiceRow, driverChoiceList, type DriverRow, driverList, findMatching } from './drivers.repository.js';

const NOT_FOUND = 'Conducteur introuvable';

/** A page's row carries its files (the list's pageColumns); one record's are filled by recordsWithDocuments. */
export function toDriver(row: DriverRow & { documents?: EntityFileRef[] }): Driver {
  return {
    uuid: row.uuid,
    firstName: row.firstName,
    lastName: row.lastName,
    email: row.email,
    phone: row.phone,
    documents: row.documents ?? [],
    isArchived: row.archivedAt !== null,
    archivedAt: row.archivedAt?.toISOString() ?? null,
    createdAt: row.createdAt.toISOString(),
  };
}

/** How the activity log names an erased driver, and a document erased with it. */
export const ERASED_DRIVER_LABEL = 'Conducteur effacé';
export const ERASED_DOCUMENT_LABEL = 'Document effacé avec son conducteur';
const purgeDocuments = purgeEntityDocuments('driver');

// A driver archived keeps its claims pointing at it; deleted for good, its claims lose the link.
const register = registerService({
  list: driverList,
  toItem: toDriver,
  notFound: NOT_FOUND,
  adminOnlyDelete: 'Seul un administrateur peut supprimer définitivement un conducteur',
  // Erased (GDPR, decision 049): its folder and its files, live or in the trash, and their stored
  // objects go with it, and the activity log keeps of them only who did what and when; its claims
  // stay the organization's, without the link.
  purge: async (tx, organizationUuid, uuid) => {
    const { documentUuids, removeObjects } = await purgeDocuments(tx, organizationUuid, uuid);
    await eraseFromActivityLog(tx, [
      { entity: 'driver', uuids: [uuid], label: ERASED_DRIVER_LABEL },
      { entity: 'document', uuids: documentUuids, label: ERASED_DOCUMENT_LABEL },
    ]);
    return removeObjects;
  },
});
export const { list, hardDelete, exportFile } = register;
const reads = recordsWithDocuments('driver', register.getOne);
export const { getOne } = reads;
export const archive = reads.record(register.archive);
export const restore = reads.record(register.restore);

export function toDriverChoice(row: DriverChoiceRow): DriverChoice {
  return { uuid: row.uuid, firstName: row.firstName, lastName: row.lastName, phone: row.phone };
}

/** The drivers a claim form offers (GET /api/driver/choices). */
export function listChoices(db: Database, ctx: AuthContext, query: z.output<typeof ListDriverChoicesQuerySchema>, options?: ReadOptions) {
  return readPage(db, requireOrganization(ctx), driverChoiceList, query, toDriverChoice, options);
}

export async function create(db: Database, ctx: AuthContext, body: z.output<typeof CreateDriverBodySchema>) {
  const organizationUuid = requireOrganization(ctx);
  const values = { firstName: body.firstName, lastName: body.lastName, email: body.email ?? null, phone: body.phone ?? null };
  const row = await withTenant(db, organizationUuid, async (tx) => {
    if (!body.force) {
      const existing = await findMatching(tx, values);
      if (existing) throw duplicate(existing, values);
    }
    return insertRecord(tx, driverList, { organizationUuid, ...values });
  });
  return toDriver(row);
}

/** 409 naming the driver that exists already; the form asks, then sends force: true to create a second. */
function duplicate(existing: { uuid: string; firstName: string; lastName: string; email: string | null }, wanted: { email: string | null }) {
  const name = `${existing.firstName} ${existing.lastName}`;
  const byEmail = wanted.email !== null && existing.email?.toLowerCase() === wanted.email.toLowerCase();
  const message = byEmail
    ? `Un conducteur avec cette adresse e-mail existe déjà : ${name}`
    : `Un conducteur avec ces nom, prénom et téléphone existe déjà : ${name}`;
  return new ConflictError(message, [
    { path: DUPLICATE_DRIVER_DETAIL, message: existing.uuid },
    { path: byEmail ? 'email' : 'phone', message },
  ]);
}

export async function update(db: Database, ctx: AuthContext, uuid: string, body: z.output<typeof UpdateDriverBodySchema>) {
  const row = await withTenant(db, requireOrganization(ctx), (tx) => updateRecord(tx, driverList, uuid, body));
  if (!row) throw new NotFoundError(NOT_FOUND);
  return reads.one(db, ctx, toDriver(row));
}
