import { and, eq, gte, is, isNotNull, isNull, lt, lte, ne, or, Placeholder, type SQL, sql } from 'drizzle-orm';
import type { z } from 'zod';
import { type ListVehiculesQuerySchema, normalizePlate, type UpdateCategoryQuerySchema, type VEHICULE_SORT_COLUMNS, type VehiculeTypeCode } from '@flotte/contract';
import type { PgColumn } from 'drizzle-orm/pg-core';
import {
  type ArchiveMode,
  archiveCondition,
  archiveModeOf,
  pageOrder,
  pagePlaceholders,
  pageResult,
  pageStatement,
  readVersion,
  sortColumns,
  sortKeys,
} from '../../db/registers.js';
import type { Tx } from '../../db/scope.js';
import { vehicules } from '../../db/schema/vehicules.js';
import { searchPatterns, searchPlaceholders, searchTextMatches, searchValues } from '../../db/search.js';
import { prepared } from '../../db/statements.js';
import { offsetOf } from '../../lib/pagination.js';

type FilterQuery = z.output<typeof UpdateCategoryQuerySchema>;
type ListQuery = z.output<typeof ListVehiculesQuerySchema>;

// Each key has its (organization_uuid, key, uuid) index (migrations 0003, 0007).
const sortableColumns: Record<(typeof VEHICULE_SORT_COLUMNS)[number], PgColumn> = {
  immatriculation: vehicules.immatriculation,
  brand: vehicules.brandKey,
  model: vehicules.modelKey,
  type: vehicules.type,
  circulationDate: vehicules.circulationDate,
  entryDate: vehicules.entryDate,
  exitDate: vehicules.exitDate,
  createdAt: vehicules.createdAt,
};

/** Which filters are set: what the SQL of a filter depends on (the values are separate). */
type FilterShape = { archive: ArchiveMode; patterns: number; types: boolean; start: boolean; end: boolean };
/** The filter's values, as values (the bulk change) or as placeholders (the prepared list). */
type FilterValues = {
  organization: string | Placeholder;
  patterns: readonly (string | Placeholder)[];
  types: readonly string[] | Placeholder | undefined;
  start: string | Placeholder | undefined;
  end: string | Placeholder | undefined;
};

/**
 * Brand and model as typed, and the plate in any spelling ('ab-123', 'AB 123 CD'): plates are
 * stored without separators, so the search is also tried normalised. Both patterns test the
 * indexed search_text (it contains the plate), so the trigram index serves each branch of the OR.
 */
function patternsOf(search: string | undefined): string[] {
  return search ? searchPatterns(search, normalizePlate(search)) : [];
}

function filterShape(query: FilterQuery, patterns: readonly string[]): FilterShape {
  return { archive: archiveModeOf(query), patterns: patterns.length, types: Boolean(query.types), start: Boolean(query.start), end: Boolean(query.end) };
}

/** What the list shows and the bulk category change touches: never a draft (no plate yet). */
function filterCondition(shape: FilterShape, values: FilterValues): SQL | undefined {
  return and(
    eq(vehicules.organizationUuid, values.organization),
    isNotNull(vehicules.immatriculation),
    archiveCondition(vehicules.archivedAt, shape.archive),
    shape.patterns > 0 ? searchTextMatches(vehicules.searchText, values.patterns) : undefined,
    // One array parameter (a plain array would be spread into a list of parameters).
    shape.types ? sql`${vehicules.type} = any(${is(values.types, Placeholder) ? values.types : sql.param(values.types)}::text[])` : undefined,
    // In the fleet at some point of [start, end]: entered by the end, not gone before the start.
    shape.end ? or(isNull(vehicules.entryDate), lte(vehicules.entryDate, sql`${values.end}::date`)) : undefined,
    shape.start ? or(isNull(vehicules.exitDate), gte(vehicules.exitDate, sql`${values.start}::date`)) : undefined,
  );
}

function isFiltered(shape: FilterShape): boolean {
  return shape.patterns > 0 || shape.types || shape.start || shape.end;
}

type ListShape = FilterShape & { sortBy: string };

/** The list statement of one shape; its values are placeholders (db/statements.ts). */
function listStatement(tx: Tx) {
  return (shape: ListShape) => {
    const where = and(
      filterCondition(shape, {
        organization: pagePlaceholders.organization,
        patterns: searchPlaceholders(shape.patterns),
        types: sql.placeholder('types'),
        start: sql.placeholder('start'),
        end: sql.placeholder('end'),
      }),
    );
    const order = sortKeys(shape.sortBy, sortableColumns, 'immatriculation', vehicules.uuid);
    const page = tx
      .select({
        uuid: vehicules.uuid,
        brand: vehicules.brand,
        model: vehicules.model,
        type: vehicules.type,
        circulationDate: vehicules.circulationDate,
        entryDate: vehicules.entryDate,
        exitDate: vehicules.exitDate,
        immatriculation: vehicules.immatriculation,
        archivedAt: vehicules.archivedAt,
        createdAt: vehicules.createdAt,
        ...sortColumns(order),
      })
      .from(vehicules)
      .where(where)
      .orderBy(...pageOrder(order, shape.patterns > 0))
      .limit(pagePlaceholders.limit)
      .offset(pagePlaceholders.offset)
      .as('list_page');
    const { uuid, brand, model, type, circulationDate, entryDate, exitDate, immatriculation, archivedAt, createdAt } = page;
    return pageStatement(tx, {
      register: 'vehicules',
      table: vehicules,
      where,
      filtered: isFiltered(shape),
      page,
      fields: { uuid, brand, model, type, circulationDate, entryDate, exitDate, immatriculation, archivedAt, createdAt },
      order,
    });
  };
}

/** The version of what the vehicles list shows, to check a copy of a page against. */
export function listVersion(tx: Tx, organizationUuid: string) {
  return readVersion(tx, organizationUuid, ['vehicules']);
}

/** One page of vehicles with the counts and the register's version, in one statement. */
export async function listVehicules(tx: Tx, organizationUuid: string, query: ListQuery) {
  const patterns = patternsOf(query.search);
  const shape: ListShape = { ...filterShape(query, patterns), sortBy: query.sortBy ?? 'immatriculation' };
  const statement = prepared(tx, 'vehicules_list', shape, listStatement(tx));
  const result = await statement.execute({
    organization: organizationUuid,
    limit: query.limit,
    offset: offsetOf(query.page, query.limit),
    types: query.types ?? null,
    start: query.start ?? null,
    end: query.end ?? null,
    ...searchValues(patterns),
  });
  return pageResult(result, shape.archive, (r) =>
    r.uuid === null || r.createdAt === null
      ? null
      : {
          uuid: r.uuid,
          brand: r.brand,
          model: r.model,
          type: r.type,
          circulationDate: r.circulationDate,
          entryDate: r.entryDate,
          exitDate: r.exitDate,
          immatriculation: r.immatriculation,
          archivedAt: r.archivedAt,
          createdAt: r.createdAt,
        },
  );
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
  const patterns = patternsOf(query.search);
  const rows = await tx
    .update(vehicules)
    .set({ type, updatedAt: new Date() })
    .where(
      and(
        filterCondition(filterShape(query, patterns), {
          organization: organizationUuid,
          patterns,
          types: query.types,
          start: query.start,
          end: query.end,
        }),
        sql`${vehicules.type} is distinct from ${type}`,
      ),
    )
    .returning({ uuid: vehicules.uuid });
  return rows.length;
}
