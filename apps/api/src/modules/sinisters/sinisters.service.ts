import {
  centsToEuros,
  type CreateSinisterBodySchema,
  eurosToCents,
  type Guarantee,
  type Sinister,
  type UpdateSinisterBodySchema,
} from '@flotte/contract';
import type { z } from 'zod';
import type { Database } from '../../db/client.js';
import { findRecord, insertRecord, updateRecord } from '../../db/records.js';
import { type ReadTx, readTenant, withTenant } from '../../db/scope.js';
import { BadRequestError, NotFoundError } from '../../errors.js';
import { type AuthContext, requireOrganization } from '../../lib/auth-context.js';
import { registerService } from '../../lib/register-service.js';
import * as repo from './sinisters.repository.js';

const NOT_FOUND = 'Sinistre introuvable';

type CreateBody = z.output<typeof CreateSinisterBodySchema>;
type UpdateBody = z.output<typeof UpdateSinisterBodySchema>;

export function toSinister(row: repo.SinisterRow): Sinister {
  return {
    uuid: row.uuid,
    sinisterIntermediateRef: row.sinisterIntermediateRef,
    sinisterDate: row.sinisterDate,
    city: row.city,
    ida: row.ida,
    hasHumanInjury: row.hasHumanInjury,
    damagedVehicule: row.damagedVehicule,
    isThirdImplicated: row.isThirdImplicated,
    isDeclared: row.isDeclared,
    // The table's check constraint keeps the rate within RESPONSIBILITY_RATES.
    responsibilityRate: row.responsibilityRate as Sinister['responsibilityRate'],
    immatriculation: row.immatriculation,
    vehicule: row.vehiculeUuid ? { uuid: row.vehiculeUuid, immatriculation: row.vehiculePlate, brand: row.vehiculeBrand, model: row.vehiculeModel } : null,
    driver:
      row.driverUuid && row.driverFirstName !== null && row.driverLastName !== null
        ? { uuid: row.driverUuid, firstName: row.driverFirstName, lastName: row.driverLastName }
        : null,
    totalCost: centsToEuros(row.totalCostCents),
    guarantee: row.guaranteeUuid && row.guaranteeLabel !== null ? { uuid: row.guaranteeUuid, label: row.guaranteeLabel } : null,
    documents: [],
    isArchived: row.archivedAt !== null,
    archivedAt: row.archivedAt?.toISOString() ?? null,
    createdAt: row.createdAt.toISOString(),
  };
}

export async function listGuarantees(db: Database, ctx: AuthContext): Promise<Guarantee[]> {
  return readTenant(db, requireOrganization(ctx), (tx) => repo.listGuarantees(tx));
}

// A claim archived leaves the list until restored ('Annuler').
export const { list, getOne, archive, restore, hardDelete } = registerService({
  list: repo.sinisterList,
  toItem: toSinister,
  notFound: NOT_FOUND,
  adminOnlyDelete: 'Seul un administrateur peut supprimer définitivement un sinistre',
});

type LinkValues = Pick<repo.SinisterValues, 'vehiculeUuid' | 'immatriculation' | 'driverUuid' | 'guaranteeUuid'>;

/**
 * Checks the vehicle, driver and guarantee the body points at, and gives their columns (the
 * claim keeps a copy of the vehicle's plate). A link the organization cannot see is a mistake in
 * the form, so it answers 400 on that field: a 404 would read as "the claim is missing".
 */
async function resolveLinks(tx: ReadTx, body: Pick<UpdateBody, 'vehicule' | 'driver' | 'guarantee'>): Promise<Partial<LinkValues>> {
  const values: Partial<LinkValues> = {};
  const details: { path: string; message: string }[] = [];
  if (body.vehicule !== undefined) {
    const vehicule = await repo.findVehiculeLink(tx, body.vehicule);
    // A draft (create-empty, no plate yet) is not in the fleet.
    if (!vehicule?.immatriculation) details.push({ path: 'vehicule', message: 'Véhicule introuvable dans votre flotte' });
    else Object.assign(values, { vehiculeUuid: vehicule.uuid, immatriculation: vehicule.immatriculation });
  }
  if (body.driver !== undefined) {
    if (body.driver === null) values.driverUuid = null;
    else if (await repo.findDriverLink(tx, body.driver)) values.driverUuid = body.driver;
    else details.push({ path: 'driver', message: 'Conducteur introuvable' });
  }
  if (body.guarantee !== undefined) {
    if (body.guarantee === null) values.guaranteeUuid = null;
    else if (await repo.findGuarantee(tx, body.guarantee)) values.guaranteeUuid = body.guarantee;
    else details.push({ path: 'guarantee', message: 'Garantie inconnue' });
  }
  if (details.length > 0) throw new BadRequestError(details[0]!.message, details);
  return values;
}

/** The claim's own columns from a body; undefined leaves a column as it is (or at its default). */
function ownValues(body: UpdateBody): Partial<repo.SinisterValues> {
  return {
    sinisterIntermediateRef: body.sinisterIntermediateRef,
    sinisterDate: body.sinisterDate,
    city: body.city,
    ida: body.ida,
    hasHumanInjury: body.hasHumanInjury,
    damagedVehicule: body.damagedVehicule,
    isThirdImplicated: body.isThirdImplicated,
    isDeclared: body.isDeclared,
    responsibilityRate: body.responsibilityRate,
    totalCostCents: body.totalCost === undefined ? undefined : eurosToCents(body.totalCost),
  };
}

export async function create(db: Database, ctx: AuthContext, body: CreateBody) {
  const organizationUuid = requireOrganization(ctx);
  const row = await withTenant(db, organizationUuid, async (tx) => {
    const links = await resolveLinks(tx, body);
    return insertRecord(tx, repo.sinisterList, { ...ownValues(body), ...links, organizationUuid, sinisterDate: body.sinisterDate });
  });
  return toSinister(row);
}

export async function update(db: Database, ctx: AuthContext, uuid: string, body: UpdateBody) {
  const row = await withTenant(db, requireOrganization(ctx), async (tx) => {
    // An unknown claim is not found before its links are looked at.
    if (!(await findRecord(tx, repo.sinisterList, uuid))) return null;
    return updateRecord(tx, repo.sinisterList, uuid, { ...ownValues(body), ...(await resolveLinks(tx, body)) });
  });
  if (!row) throw new NotFoundError(NOT_FOUND);
  return toSinister(row);
}
