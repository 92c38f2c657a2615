import { and, eq, gte, inArray, isNotNull, isNull, lt, lte, ne, or, type SQL, sql } from 'drizzle-orm';
import type { z } from 'zod';
import { type ListVehiculesQuerySchema, normalizePlate, type UpdateCategoryQuerySchema, type VEHICULE_SORT_COLUMNS, type VehiculeTypeCode } from '@flotte/contract';
import type { PgColumn } from 'drizzle-orm/pg-core';
import { archiveCondition, orderBy, registerPage } from '../../db/registers.js';
import type { Tx } from '../../db/scope.js';
import { vehicules } from '../../db/schema/vehicules.js';
import { searchTextMatches } from '../../db/search.js';

type FilterQuery = z.output<typeof UpdateCategoryQuerySchema>;
type ListQuery = z.output<typeof ListVehiculesQuerySchema>;

const sortColumns: Record<(typeof VEHICULE_SORT_COLUMNS)[number], SQL | PgColumn> = {
  immatriculation: vehicules.immatriculation,
  brand: sql`lower(f_unaccent(${vehicules.brand}))`,
  model: sql`lower(f_unaccent(${vehicules.model}))`,
  type: vehicules.type,
  circulationDate: vehicules.circulationDate,
  entryDate: vehicules.entryDate,
  exitDate: vehicules.exitDate,
  createdAt: vehicules.createdAt,
};

/**
 * Brand and model as typed, and the plate in any spelling ('ab-123', 'AB 123 CD'): plates are
 * stored without separators, so the search is also tried normalised. Both sides test the indexed
 * expression (it contains the plate), so the trigram index serves each branch of the OR.
 */
function searchCondition(search: string): SQL {
  return searchTextMatches(vehicules.searchText, search, normalizePlate(search));
}

/** What the list shows and the bulk category change touches: never a draft (no plate yet). */
function filterCondition(organizationUuid: string, query: FilterQuery): SQL | undefined {
  return and(
    eq(vehicules.organizationUuid, organizationUuid),
    isNotNull(vehicules.immatriculation),
    archiveCondition(vehicules.archivedAt, query),
    query.search ? searchCondition(query.search) : undefined,
    query.types ? inArray(vehicules.type, query.types) : undefined,
    // In the fleet at some point of [start, end]: entered by the end, not gone before the start.
    query.end ? or(isNull(vehicules.entryDate), lte(vehicules.entryDate, query.end)) : undefined,
    query.start ? or(isNull(vehicules.exitDate), gte(vehicules.exitDate, query.start)) : undefined,
  );
}

export async function listVehicules(tx: Tx, organizationUuid: string, query: ListQuery) {
  const where = filterCondition(organizationUuid, query);
  return registerPage(tx, organizationUuid, 'vehicules', query, {
    rows: tx
      .select()
      .from(vehicules)
      .where(where)
      .orderBy(...orderBy(query.sortBy, sortColumns, 'immatriculation', vehicules.uuid, { searching: Boolean(query.search) }))
      .limit(query.limit)
      .offset((query.page - 1) * query.limit),
    filtered: Boolean(query.search || query.types || query.start || query.end),
    matching: (t) => t.select({ uuid: vehicules.uuid }).from(vehicules).where(where).$dynamic(),
  });
}

export async function findVehicule(tx: Tx, uuid: string) {
  const [row] = await tx.select().from(vehicules).where(eq(vehicules.uuid, uuid)).limit(1);
  return row ?? null;
}

/** The active vehicle of the organization holding this (normalised) plate, other than exceptUuid. */
export async function findActiveByPlate(tx: Tx, organizationUuid: string, immatriculation: string, exceptUuid?: string) {
  const [row] = await tx
    .select({ uuid: vehicules.uuid })
    .from(vehicules)
    .where(
      and(
        eq(vehicules.organizationUuid, organizationUuid),
        eq(vehicules.immatriculation, immatriculation),
        isNull(vehicules.archivedAt),
        exceptUuid ? ne(vehicules.uuid, exceptUuid) : undefined,
      ),
    )
    .limit(1);
  return row ?? null;
}

export type VehiculeRow = typeof vehicules.$inferSelect;
export type VehiculeValues = Pick<
  typeof vehicules.$inferInsert,
  'brand' | 'model' | 'type' | 'immatriculation' | 'circulationDate' | 'entryDate' | 'exitDate'
>;

export async function insertVehicule(tx: Tx, organizationUuid: string, values: VehiculeValues) {
  const [row] = await tx.insert(vehicules).values({ ...values, organizationUuid }).returning();
  return row!;
}

export async function updateVehicule(tx: Tx, uuid: string, values: Partial<VehiculeValues> & { archivedAt?: Date | null }) {
  const [row] = await tx
    .update(vehicules)
    .set({ ...values, updatedAt: new Date() })
    .where(eq(vehicules.uuid, uuid))
    .returning();
  return row ?? null;
}

export async function deleteVehicule(tx: Tx, uuid: string) {
  const rows = await tx.delete(vehicules).where(eq(vehicules.uuid, uuid)).returning({ uuid: vehicules.uuid });
  return rows.length > 0;
}

/** Drafts (create-empty) never completed within a day are abandoned forms. */
export async function purgeDrafts(tx: Tx, organizationUuid: string) {
  const rows = await tx
    .delete(vehicules)
    .where(
      and(
        eq(vehicules.organizationUuid, organizationUuid),
        isNull(vehicules.immatriculation),
        lt(vehicules.createdAt, sql`now() - interval '24 hours'`),
      ),
    )
    .returning({ uuid: vehicules.uuid });
  return rows.length;
}

/** Moves every vehicle matching the filters to one category; counts the rows actually changed. */
export async function setCategory(tx: Tx, organizationUuid: string, query: FilterQuery, type: VehiculeTypeCode) {
  const rows = await tx
    .update(vehicules)
    .set({ type, updatedAt: new Date() })
    .where(and(filterCondition(organizationUuid, query), sql`${vehicules.type} is distinct from ${type}`))
    .returning({ uuid: vehicules.uuid });
  return rows.length;
}
