import {
  centsToEuros,
  claimAmounts,
  claimIssues,
  type ClaimState,
  type CreateSinisterBodySchema,
  eurosToCents,
  type Guarantee,
  type Sinister,
  type UpdateSinisterBodySchema,
} from '@flotte/contract';
import type { z } from 'zod';
import type { Database } from '../../db/client.js';
import { findRecord, insertRecord, updateRecord } from '../../db/records.js';
import { type ReadTx, readSystem, readTenant, withTenant } from '../../db/scope.js';
import { BadRequestError, NotFoundError } from '../../errors.js';
import { type AuthContext, isRoot, requireOrganization } from '../../lib/auth-context.js';
import { registerService } from '../../lib/register-service.js';
import { recordsWithDocuments } from '../documents/documents.service.js';
import type { EntityFileRef } from '../documents/entity-files.js';
import * as repo from './sinisters.repository.js';

/** A claim's own columns as the list declares them (the import compares claims on them). */
export { claimColumns } from './sinisters.repository.js';

const NOT_FOUND = 'Sinistre introuvable';

type CreateBody = z.output<typeof CreateSinisterBodySchema>;
type UpdateBody = z.output<typeof UpdateSinisterBodySchema>;

/** A page's row carries its files (the list's pageColumns); one record's are filled by recordsWithDocuments. */
export function toSinister(row: repo.SinisterRow & { documents?: EntityFileRef[] }): Sinister {
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
    status: row.status,
    openedAt: row.openedAt,
    closedAt: row.closedAt,
    paidAmount: centsToEuros(row.paidCents),
    reserveAmount: centsToEuros(row.reserveCents),
    description: row.description,
    guarantee: row.guaranteeUuid && row.guaranteeLabel !== null ? { uuid: row.guaranteeUuid, label: row.guaranteeLabel } : null,
    documents: row.documents ?? [],
    isArchived: row.archivedAt !== null,
    archivedAt: row.archivedAt?.toISOString() ?? null,
    createdAt: row.createdAt.toISOString(),
  };
}

export async function listGuarantees(db: Database, ctx: AuthContext): Promise<Guarantee[]> {
  // ROOT edits the list from /root/spaces, with or without a current organization (decision 043).
  if (isRoot(ctx) && !ctx.organizationUuid) return readSystem(db, (tx) => repo.listGuarantees(tx));
  return readTenant(db, requireOrganization(ctx), (tx) => repo.listGuarantees(tx));
}

// A claim archived leaves the list until restored ('Annuler').
const register = registerService({
  list: repo.sinisterList,
  toItem: toSinister,
  notFound: NOT_FOUND,
  adminOnlyDelete: 'Seul un administrateur peut supprimer définitivement un sinistre',
});
export const { hardDelete, exportFile } = register;
const reads = recordsWithDocuments('sinister', register.getOne);
export const { getOne } = reads;
export const archive = reads.record(register.archive);
export const restore = reads.record(register.restore);

/** A page of claims with the total cost of every claim the query matches (the list's declared sum). */
export async function list(...args: Parameters<typeof register.list>) {
  const page = await register.list(...args);
  return page as typeof page & { sums: { totalCost: number } };
}

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
    status: body.status,
    openedAt: body.openedAt,
    closedAt: body.closedAt,
    description: body.description,
  };
}

const cents = (euros: number | undefined) => (euros === undefined ? undefined : eurosToCents(euros));

/**
 * The claim's status, dates and amounts once the body is applied to what is stored (or to a new
 * claim's defaults): the contract's rules on the whole (decision 024), a 400 on the first field
 * broken. Reopening a claim (open, in progress) clears its closing date unless the body sets one.
 */
function lifecycle(body: UpdateBody, current: ClaimState): Pick<repo.SinisterValues, 'status' | 'openedAt' | 'closedAt' | 'paidCents' | 'reserveCents'> {
  const status = body.status ?? current.status;
  const reopened = body.status !== undefined && (status === 'open' || status === 'inProgress') && body.closedAt === undefined;
  const amounts = claimAmounts({ totalCostCents: cents(body.totalCost), paidCents: cents(body.paidAmount), reserveCents: cents(body.reserveAmount) }, current, status);
  if ('path' in amounts) throw new BadRequestError(amounts.message, [amounts]);
  const state: ClaimState = {
    sinisterDate: body.sinisterDate ?? current.sinisterDate,
    status,
    openedAt: body.openedAt === undefined ? current.openedAt : body.openedAt,
    closedAt: reopened ? null : body.closedAt === undefined ? current.closedAt : body.closedAt,
    ...amounts,
  };
  const [issue] = claimIssues(state);
  if (issue) throw new BadRequestError(issue.message, [issue]);
  return { status: state.status, openedAt: state.openedAt, closedAt: state.closedAt, paidCents: state.paidCents, reserveCents: state.reserveCents };
}

export async function create(db: Database, ctx: AuthContext, body: CreateBody) {
  const organizationUuid = requireOrganization(ctx);
  // A new claim's file is opened on the claim's day unless the body says when.
  const fresh: ClaimState = { sinisterDate: body.sinisterDate, status: 'open', openedAt: body.sinisterDate, closedAt: null, paidCents: 0, reserveCents: 0 };
  const values = lifecycle(body, fresh);
  const row = await withTenant(db, organizationUuid, async (tx) => {
    const links = await resolveLinks(tx, body);
    return insertRecord(tx, repo.sinisterList, { ...ownValues(body), ...values, ...links, organizationUuid, sinisterDate: body.sinisterDate });
  });
  return toSinister(row);
}

export async function update(db: Database, ctx: AuthContext, uuid: string, body: UpdateBody) {
  const row = await withTenant(db, requireOrganization(ctx), async (tx) => {
    // An unknown claim is not found before its links are looked at.
    const current = await findRecord(tx, repo.sinisterList, uuid);
    if (!current) return null;
    const values = lifecycle(body, current);
    return updateRecord(tx, repo.sinisterList, uuid, { ...ownValues(body), ...values, ...(await resolveLinks(tx, body)) });
  });
  if (!row) throw new NotFoundError(NOT_FOUND);
  return reads.one(db, ctx, toSinister(row));
}

/**
 * A claim's own columns once a body meets what is stored (or a new claim's defaults), with the
 * forms' rules on status, dates and amounts (BadRequestError on the first broken): what an
 * import writes, so an imported claim obeys the same rules as one typed in.
 */
export function claimValues(body: UpdateBody, current: ClaimState | null) {
  const fresh: ClaimState | null = current ?? (body.sinisterDate ? { sinisterDate: body.sinisterDate, status: 'open', openedAt: body.sinisterDate, closedAt: null, paidCents: 0, reserveCents: 0 } : null);
  if (!fresh) throw new BadRequestError('La date du sinistre est obligatoire pour un nouveau sinistre', [{ path: 'sinisterDate', message: 'La date du sinistre est obligatoire pour un nouveau sinistre' }]);
  return { ...ownValues(body), ...lifecycle(body, fresh) };
}
