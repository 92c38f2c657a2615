import {
  type ArchiveVehiculeQuerySchema,
  checkPlate,
  type CreateVehiculeBodySchema,
  todayIso,
  type UpdateCategoryQuerySchema,
  type UpdateVehiculeBodySchema,
  type Vehicule,
  type VehiculeChoice,
  type ListVehiculeChoicesQuerySchema,
  vehiculeDateIssues,
  type VehiculeTypeCode,
} from '@flotte/contract';
import type { z } from 'zod';
import type { Database } from '../../db/client.js';
import { type ReadOptions, readPage } from '../../db/list-kit.js';
import { findRecord, insertRecord, updateRecord } from '../../db/records.js';
import { withTenant } from '../../db/scope.js';
import { BadRequestError, ConflictError, NotFoundError } from '../../errors.js';
import { type AuthContext, requireOrganization } from '../../lib/auth-context.js';
import { registerService } from '../../lib/register-service.js';
import { recordsWithDocuments } from '../documents/documents.service.js';
import type { EntityFileRef } from '../documents/entity-files.js';
import { type FleetMovement, type FleetNotifier, notifyFleetMovements } from '../insurance-intermediary/insurance-intermediary.service.js';
import * as repo from './vehicules.repository.js';
import { isUniqueViolation } from '../../lib/db-errors.js';

const NOT_FOUND = 'Véhicule introuvable';

type Issue = { path: string; message: string };

/** A page's row carries its files (the list's pageColumns); one record's are filled by recordsWithDocuments. */
export function toVehicule(row: repo.VehiculeRow & { documents?: EntityFileRef[] }): Vehicule {
  return {
    uuid: row.uuid,
    brand: row.brand,
    model: row.model,
    // Written only through the contract's enum (VehiculeTypeSchema).
    type: row.type as VehiculeTypeCode | null,
    circulationDate: row.circulationDate,
    entryDate: row.entryDate,
    exitDate: row.exitDate,
    immatriculation: row.immatriculation,
    immatriculationWarning: row.immatriculation ? checkPlate(row.immatriculation).warning : null,
    documents: row.documents ?? [],
    isArchived: row.archivedAt !== null,
    archivedAt: row.archivedAt?.toISOString() ?? null,
    createdAt: row.createdAt.toISOString(),
  };
}

/** Same message shape as the request validation errors, so the web shows both alike. */
function invalid(issues: Issue[]): BadRequestError {
  const [first] = issues as [Issue, ...Issue[]];
  return new BadRequestError(`Données invalides (${first.path}) : ${first.message}`, issues);
}

function duplicatePlate(immatriculation: string): ConflictError {
  const message = `Le véhicule ${checkPlate(immatriculation).display} existe déjà dans votre flotte`;
  return new ConflictError(message, [{ path: 'immatriculation', message }]);
}

/** A draft becomes a vehicle only once it has what the register needs to show it. */
function missingFields(v: Pick<repo.VehiculeRow, 'brand' | 'model' | 'type' | 'immatriculation'>): Issue[] {
  const issues: Issue[] = [];
  if (!v.brand) issues.push({ path: 'brand', message: 'La marque est obligatoire' });
  if (!v.model) issues.push({ path: 'model', message: 'Le modèle est obligatoire' });
  if (!v.type) issues.push({ path: 'type', message: 'La catégorie est obligatoire' });
  if (!v.immatriculation) issues.push({ path: 'immatriculation', message: "L'immatriculation est obligatoire" });
  return issues;
}

async function guardPlate<T>(plate: () => string | null | undefined, work: Promise<T>): Promise<T> {
  try {
    return await work;
  } catch (error) {
    const immatriculation = plate();
    if (immatriculation && isUniqueViolation(error)) throw duplicatePlate(immatriculation);
    throw error;
  }
}

// The register's shared reads and permanent deletion; archive and restore have the vehicle's own rules below.
const shared = registerService({
  list: repo.vehiculeList,
  toItem: toVehicule,
  notFound: NOT_FOUND,
  adminOnlyDelete: 'Seul un administrateur peut supprimer définitivement un véhicule',
});
export const { list, hardDelete, exportFile } = shared;
const reads = recordsWithDocuments('vehicule', shared.getOne);
export const { getOne } = reads;

export function toVehiculeChoice(row: repo.VehiculeChoiceRow): VehiculeChoice {
  // The choice list holds no draft: every vehicle in it has its plate.
  return { uuid: row.uuid, immatriculation: row.immatriculation!, brand: row.brand, model: row.model };
}

/** The vehicles a claim form offers (GET /api/vehicule/choices). */
export function listChoices(db: Database, ctx: AuthContext, query: z.output<typeof ListVehiculeChoicesQuerySchema>, options?: ReadOptions) {
  return readPage(db, requireOrganization(ctx), repo.vehiculeChoiceList, query, toVehiculeChoice, options);
}

type Dated = Pick<repo.VehiculeRow, 'immatriculation' | 'brand' | 'model' | 'type' | 'entryDate' | 'exitDate'>;

/**
 * What the intermediary must hear of a change (SPEC 4, DOMAIN half-difference): the vehicle enters
 * the fleet when an entry date is set where there was none (a new vehicle with its entry date, a
 * draft completed, a date filled in later), and leaves it when an exit date is set where there was
 * none. Correcting a date already set tells nothing; archiving sets the exit date through
 * archive(), which tells nothing either. A draft without its plate is not in the fleet yet.
 */
export function fleetMovements(before: Dated | null, after: Dated): FleetMovement[] {
  if (!after.immatriculation) return [];
  const vehicle = { immatriculation: after.immatriculation, brand: after.brand, model: after.model, type: after.type };
  const movements: FleetMovement[] = [];
  if (after.entryDate && !before?.entryDate) movements.push({ ...vehicle, movement: 'entry', date: after.entryDate });
  if (after.exitDate && !before?.exitDate) movements.push({ ...vehicle, movement: 'exit', date: after.exitDate });
  return movements;
}

export async function create(db: Database, ctx: AuthContext, body: z.output<typeof CreateVehiculeBodySchema>, notifier?: FleetNotifier) {
  const organizationUuid = requireOrganization(ctx);
  // The contract gives the plate normalised (PlateSchema).
  const { immatriculation } = body;
  const row = await guardPlate(
    () => immatriculation,
    withTenant(db, organizationUuid, async (tx) => {
      if (await repo.findActiveByPlate(tx, organizationUuid, immatriculation)) throw duplicatePlate(immatriculation);
      const created = await insertRecord(tx, repo.vehiculeList, {
        organizationUuid,
        brand: body.brand,
        model: body.model,
        type: body.type,
        immatriculation,
        circulationDate: body.circulationDate ?? null,
        entryDate: body.entryDate ?? null,
        exitDate: body.exitDate ?? null,
      });
      if (notifier) await notifyFleetMovements(tx, ctx, notifier, fleetMovements(null, created));
      return created;
    }),
  );
  return toVehicule(row);
}

/** An empty vehicle the creation form completes with PATCH; yesterday's abandoned ones go first. */
export async function createEmpty(db: Database, ctx: AuthContext) {
  const organizationUuid = requireOrganization(ctx);
  const row = await withTenant(db, organizationUuid, async (tx) => {
    await repo.purgeDrafts(tx, organizationUuid);
    return insertRecord(tx, repo.vehiculeList, {
      organizationUuid,
      brand: null,
      model: null,
      type: null,
      immatriculation: null,
      circulationDate: null,
      entryDate: null,
      exitDate: null,
    });
  });
  return toVehicule(row);
}

export async function update(db: Database, ctx: AuthContext, uuid: string, body: z.output<typeof UpdateVehiculeBodySchema>, notifier?: FleetNotifier) {
  const organizationUuid = requireOrganization(ctx);
  const { immatriculation } = body;
  const row = await guardPlate(
    () => immatriculation,
    withTenant(db, organizationUuid, async (tx) => {
      const current = await findRecord(tx, repo.vehiculeList, uuid);
      if (!current) throw new NotFoundError(NOT_FOUND);
      // The rules hold for the record as it will be stored, not only for the fields sent.
      const merged = { ...current, ...body };
      const issues = [...(current.immatriculation === null ? missingFields(merged) : []), ...vehiculeDateIssues(merged)];
      if (issues.length > 0) throw invalid(issues);
      // Archived vehicles are outside the unique index: their plate is checked again on restore.
      if (immatriculation && current.archivedAt === null && (await repo.findActiveByPlate(tx, organizationUuid, immatriculation, uuid))) {
        throw duplicatePlate(immatriculation);
      }
      const updated = await updateRecord(tx, repo.vehiculeList, uuid, body);
      // An archived vehicle is out of the fleet: a date written on it moves nothing.
      if (notifier && updated && current.archivedAt === null) await notifyFleetMovements(tx, ctx, notifier, fleetMovements(current, updated));
      return updated;
    }),
  );
  if (!row) throw new NotFoundError(NOT_FOUND);
  return reads.one(db, ctx, toVehicule(row));
}

/**
 * Soft delete: the exit date is recorded first (it drives the half-difference), then the vehicle
 * is archived. Deliberately without notifying the intermediary (SPEC 4).
 */
export async function archive(db: Database, ctx: AuthContext, uuid: string, query: z.output<typeof ArchiveVehiculeQuerySchema>) {
  const row = await withTenant(db, requireOrganization(ctx), async (tx) => {
    const current = await findRecord(tx, repo.vehiculeList, uuid);
    if (!current) return null;
    if (current.archivedAt) return current;
    const exitDate = query.exitDate ?? current.exitDate ?? todayIso();
    // Only the exit date is decided here; older inconsistencies are the edit form's business.
    const issues = vehiculeDateIssues({ ...current, exitDate }).filter((i) => i.path === 'exitDate');
    if (issues.length > 0) throw invalid(issues);
    return updateRecord(tx, repo.vehiculeList, uuid, { exitDate, archivedAt: new Date() });
  });
  if (!row) throw new NotFoundError(NOT_FOUND);
  return reads.one(db, ctx, toVehicule(row));
}

/**
 * Back in the fleet, unless an active vehicle took its plate meanwhile. The exit date archiving
 * set goes too: a vehicle in the fleet has not left it ('Annuler' puts back an earlier one).
 */
export async function restore(db: Database, ctx: AuthContext, uuid: string) {
  const organizationUuid = requireOrganization(ctx);
  let plate: string | null = null;
  const row = await guardPlate(
    () => plate,
    withTenant(db, organizationUuid, async (tx) => {
      const current = await findRecord(tx, repo.vehiculeList, uuid);
      if (!current) return null;
      if (!current.archivedAt) return current;
      plate = current.immatriculation;
      if (plate && (await repo.findActiveByPlate(tx, organizationUuid, plate, uuid))) throw duplicatePlate(plate);
      return updateRecord(tx, repo.vehiculeList, uuid, { archivedAt: null, exitDate: null });
    }),
  );
  if (!row) throw new NotFoundError(NOT_FOUND);
  return reads.one(db, ctx, toVehicule(row));
}

/** Bulk category change over the list's filters (drafts excluded); answers how many changed. */
export async function updateCategory(db: Database, ctx: AuthContext, type: VehiculeTypeCode, query: z.output<typeof UpdateCategoryQuerySchema>) {
  const organizationUuid = requireOrganization(ctx);
  const updated = await withTenant(db, organizationUuid, (tx) => repo.setCategory(tx, organizationUuid, query, type));
  return { updated };
}
