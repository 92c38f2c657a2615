import { and, asc, eq, gt, gte, lte, type SQL, sql } from 'drizzle-orm';
import type { z } from 'zod';
import { type ListSinistersQuerySchema, normalizePlate } from '@flotte/contract';
import { archiveCondition, orderBy, registerPage } from '../../db/registers.js';
import type { Tx } from '../../db/scope.js';
import { drivers } from '../../db/schema/drivers.js';
import { guarantees, sinisters } from '../../db/schema/sinisters.js';
import { vehicules } from '../../db/schema/vehicules.js';
import { searchTextMatches } from '../../db/search.js';

type ListQuery = z.output<typeof ListSinistersQuerySchema>;

// Each key has its (organization_uuid, key, uuid) index in migration 0003.
const sortColumns = {
  sinisterDate: sinisters.sinisterDate,
  sinisterIntermediateRef: sinisters.sinisterIntermediateRef,
  city: sql`lower(f_unaccent(${sinisters.city}))`,
  totalCost: sinisters.totalCostCents,
  immatriculation: sinisters.immatriculation,
  createdAt: sinisters.createdAt,
};

/**
 * Reference, city or plate. Plates are stored normalised (AB123CD), so the search is also tried
 * without its separators: 'ab-123' or 'AB 123 CD' find AB123CD. The second branch matches the
 * indexed expression (which holds the plate) rather than the plate column alone, so the OR stays
 * within what the trigram index can serve.
 */
function searchCondition(search: string): SQL {
  return searchTextMatches(sinisters.searchText, search, normalizePlate(search));
}

/** showDeclared alone: declared only; showNotDeclared alone: the others; both or neither: all. */
function declaredCondition(query: ListQuery): SQL | undefined {
  if (query.showDeclared && !query.showNotDeclared) return eq(sinisters.isDeclared, true);
  if (query.showNotDeclared && !query.showDeclared) return eq(sinisters.isDeclared, false);
  return undefined;
}

/** 'me': at fault in any share; 'other': not at fault. A rate not known yet matches neither. */
function responsibleCondition(responsible: ListQuery['responsible']): SQL | undefined {
  if (responsible === 'me') return gt(sinisters.responsibilityRate, 0);
  if (responsible === 'other') return eq(sinisters.responsibilityRate, 0);
  return undefined;
}

/** The filters other than the archive state; none set means the maintained counts give the total. */
function filterConditions(query: ListQuery): SQL[] {
  return [
    query.search ? searchCondition(query.search) : undefined,
    declaredCondition(query),
    responsibleCondition(query.responsible),
    query.hasHumanInjury ? eq(sinisters.hasHumanInjury, true) : undefined,
    query.damagedVehicule ? eq(sinisters.damagedVehicule, true) : undefined,
    query.isThirdImplicated ? eq(sinisters.isThirdImplicated, true) : undefined,
    query.garantee ? eq(sinisters.guaranteeUuid, query.garantee) : undefined,
    query.startDate ? gte(sinisters.sinisterDate, query.startDate) : undefined,
    query.endDate ? lte(sinisters.sinisterDate, query.endDate) : undefined,
  ].filter((c): c is SQL => c !== undefined);
}

/** A claim with the summaries the list shows: one query, left joins (the links are optional). */
function selectSinisters(tx: Tx) {
  return tx
    .select({
      sinister: sinisters,
      vehicule: { uuid: vehicules.uuid, immatriculation: vehicules.immatriculation, brand: vehicules.brand, model: vehicules.model },
      driver: { uuid: drivers.uuid, firstName: drivers.firstName, lastName: drivers.lastName },
      guarantee: { uuid: guarantees.uuid, label: guarantees.label },
    })
    .from(sinisters)
    .leftJoin(vehicules, eq(vehicules.uuid, sinisters.vehiculeUuid))
    .leftJoin(drivers, eq(drivers.uuid, sinisters.driverUuid))
    .leftJoin(guarantees, eq(guarantees.uuid, sinisters.guaranteeUuid));
}

export async function listSinisters(tx: Tx, organizationUuid: string, query: ListQuery) {
  const filters = filterConditions(query);
  const where = and(eq(sinisters.organizationUuid, organizationUuid), archiveCondition(sinisters.archivedAt, query), ...filters);
  return registerPage(tx, organizationUuid, 'sinisters', query, {
    rows: selectSinisters(tx)
      .where(where)
      .orderBy(...orderBy<keyof typeof sortColumns>(query.sortBy, sortColumns, '-sinisterDate', sinisters.uuid, { searching: Boolean(query.search) }))
      .limit(query.limit)
      .offset((query.page - 1) * query.limit),
    filtered: filters.length > 0,
    matching: (t) => t.select({ uuid: sinisters.uuid }).from(sinisters).where(where).$dynamic(),
  });
}

export type SinisterRow = NonNullable<Awaited<ReturnType<typeof findSinister>>>;

export async function findSinister(tx: Tx, uuid: string) {
  const [row] = await selectSinisters(tx).where(eq(sinisters.uuid, uuid)).limit(1);
  return row ?? null;
}

export type SinisterValues = Omit<typeof sinisters.$inferInsert, 'uuid' | 'organizationUuid' | 'archivedAt' | 'createdAt' | 'updatedAt'>;

export async function insertSinister(tx: Tx, organizationUuid: string, values: SinisterValues) {
  const [row] = await tx.insert(sinisters).values({ ...values, organizationUuid }).returning({ uuid: sinisters.uuid });
  return row!.uuid;
}

/** Returns whether the claim exists (for the caller's organization). */
export async function updateSinister(tx: Tx, uuid: string, values: Partial<SinisterValues> & { archivedAt?: Date | null }) {
  const rows = await tx
    .update(sinisters)
    .set({ ...values, updatedAt: new Date() })
    .where(eq(sinisters.uuid, uuid))
    .returning({ uuid: sinisters.uuid });
  return rows.length > 0;
}

export async function deleteSinister(tx: Tx, uuid: string) {
  const rows = await tx.delete(sinisters).where(eq(sinisters.uuid, uuid)).returning({ uuid: sinisters.uuid });
  return rows.length > 0;
}

/** Link targets: row-level security already limits vehicles and drivers to the organization. */
export async function findVehiculeLink(tx: Tx, uuid: string) {
  const [row] = await tx.select({ uuid: vehicules.uuid, immatriculation: vehicules.immatriculation }).from(vehicules).where(eq(vehicules.uuid, uuid)).limit(1);
  return row ?? null;
}

export async function findDriverLink(tx: Tx, uuid: string) {
  const [row] = await tx.select({ uuid: drivers.uuid }).from(drivers).where(eq(drivers.uuid, uuid)).limit(1);
  return row ?? null;
}

export async function findGuarantee(tx: Tx, uuid: string) {
  const [row] = await tx.select({ uuid: guarantees.uuid }).from(guarantees).where(eq(guarantees.uuid, uuid)).limit(1);
  return row ?? null;
}

export function listGuarantees(tx: Tx) {
  return tx.select({ uuid: guarantees.uuid, label: guarantees.label }).from(guarantees).orderBy(asc(guarantees.position), asc(guarantees.label));
}
