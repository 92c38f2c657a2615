import { and, asc, eq, gt, gte, lte, type SQL, sql } from 'drizzle-orm';
import type { z } from 'zod';
import { type ListSinistersQuerySchema, normalizePlate } from '@flotte/contract';
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
import { drivers } from '../../db/schema/drivers.js';
import { guarantees, sinisters } from '../../db/schema/sinisters.js';
import { vehicules } from '../../db/schema/vehicules.js';
import { searchPatterns, searchPlaceholders, searchTextMatches, searchValues } from '../../db/search.js';
import { prepared } from '../../db/statements.js';
import { offsetOf } from '../../lib/pagination.js';

type ListQuery = z.output<typeof ListSinistersQuerySchema>;

// Each key has its (organization_uuid, key, uuid) index (migrations 0003, 0007).
const sortableColumns = {
  sinisterDate: sinisters.sinisterDate,
  sinisterIntermediateRef: sinisters.sinisterIntermediateRef,
  city: sinisters.cityKey,
  totalCost: sinisters.totalCostCents,
  immatriculation: sinisters.immatriculation,
  createdAt: sinisters.createdAt,
};

/**
 * Reference, city or plate. Plates are stored normalised (AB123CD), so the search is also tried
 * without its separators: 'ab-123' or 'AB 123 CD' find AB123CD. Both patterns test the indexed
 * search_text (which holds the plate), so the OR stays within what the trigram index can serve.
 */
function patternsOf(search: string | undefined): string[] {
  return search ? searchPatterns(search, normalizePlate(search)) : [];
}

/** Which filters are set: what the SQL of the list depends on (the values are placeholders). */
type ListShape = {
  archive: ArchiveMode;
  patterns: number;
  /** showDeclared alone: declared only; showNotDeclared alone: the others; both or neither: all. */
  declared: 'all' | 'declared' | 'notDeclared';
  /** 'me': at fault in any share; 'other': not at fault. A rate not known yet matches neither. */
  responsible: 'any' | 'me' | 'other';
  hasHumanInjury: boolean;
  damagedVehicule: boolean;
  isThirdImplicated: boolean;
  garantee: boolean;
  startDate: boolean;
  endDate: boolean;
  sortBy: string;
};

function listShape(query: ListQuery, patterns: readonly string[]): ListShape {
  return {
    archive: archiveModeOf(query),
    patterns: patterns.length,
    declared: Boolean(query.showDeclared) === Boolean(query.showNotDeclared) ? 'all' : query.showDeclared ? 'declared' : 'notDeclared',
    responsible: query.responsible ?? 'any',
    hasHumanInjury: Boolean(query.hasHumanInjury),
    damagedVehicule: Boolean(query.damagedVehicule),
    isThirdImplicated: Boolean(query.isThirdImplicated),
    garantee: Boolean(query.garantee),
    startDate: Boolean(query.startDate),
    endDate: Boolean(query.endDate),
    sortBy: query.sortBy ?? '-sinisterDate',
  };
}

/** The filters other than the archive state; none set means the maintained counts give the total. */
function filterConditions(shape: ListShape): SQL[] {
  return [
    shape.patterns > 0 ? searchTextMatches(sinisters.searchText, searchPlaceholders(shape.patterns)) : undefined,
    shape.declared === 'all' ? undefined : eq(sinisters.isDeclared, shape.declared === 'declared'),
    shape.responsible === 'me' ? gt(sinisters.responsibilityRate, 0) : shape.responsible === 'other' ? eq(sinisters.responsibilityRate, 0) : undefined,
    shape.hasHumanInjury ? eq(sinisters.hasHumanInjury, true) : undefined,
    shape.damagedVehicule ? eq(sinisters.damagedVehicule, true) : undefined,
    shape.isThirdImplicated ? eq(sinisters.isThirdImplicated, true) : undefined,
    shape.garantee ? eq(sinisters.guaranteeUuid, sql.placeholder('garantee')) : undefined,
    shape.startDate ? gte(sinisters.sinisterDate, sql`${sql.placeholder('startDate')}::date`) : undefined,
    shape.endDate ? lte(sinisters.sinisterDate, sql`${sql.placeholder('endDate')}::date`) : undefined,
  ].filter((c): c is SQL => c !== undefined);
}

/** The list statement of one shape; its values are placeholders (db/statements.ts). */
function listStatement(tx: Tx) {
  return (shape: ListShape) => {
    const filters = filterConditions(shape);
    const where = and(eq(sinisters.organizationUuid, pagePlaceholders.organization), archiveCondition(sinisters.archivedAt, shape.archive), ...filters);
    const order = sortKeys<keyof typeof sortableColumns>(shape.sortBy, sortableColumns, '-sinisterDate', sinisters.uuid);
    // Columns of the joined tables that share a name with the claim's are renamed in the subquery.
    const page = tx
      .select({
        uuid: sinisters.uuid,
        sinisterIntermediateRef: sinisters.sinisterIntermediateRef,
        sinisterDate: sinisters.sinisterDate,
        city: sinisters.city,
        ida: sinisters.ida,
        hasHumanInjury: sinisters.hasHumanInjury,
        damagedVehicule: sinisters.damagedVehicule,
        isThirdImplicated: sinisters.isThirdImplicated,
        isDeclared: sinisters.isDeclared,
        responsibilityRate: sinisters.responsibilityRate,
        immatriculation: sinisters.immatriculation,
        totalCostCents: sinisters.totalCostCents,
        archivedAt: sinisters.archivedAt,
        createdAt: sinisters.createdAt,
        vehiculeUuid: sql<string | null>`${vehicules.uuid}`.as('list_vehicule_uuid'),
        vehiculePlate: sql<string | null>`${vehicules.immatriculation}`.as('list_vehicule_plate'),
        vehiculeBrand: vehicules.brand,
        vehiculeModel: vehicules.model,
        driverUuid: sql<string | null>`${drivers.uuid}`.as('list_driver_uuid'),
        driverFirstName: drivers.firstName,
        driverLastName: drivers.lastName,
        guaranteeUuid: sql<string | null>`${guarantees.uuid}`.as('list_guarantee_uuid'),
        guaranteeLabel: guarantees.label,
        ...sortColumns(order),
      })
      .from(sinisters)
      .leftJoin(vehicules, eq(vehicules.uuid, sinisters.vehiculeUuid))
      .leftJoin(drivers, eq(drivers.uuid, sinisters.driverUuid))
      .leftJoin(guarantees, eq(guarantees.uuid, sinisters.guaranteeUuid))
      .where(where)
      .orderBy(...pageOrder(order, shape.patterns > 0))
      .limit(pagePlaceholders.limit)
      .offset(pagePlaceholders.offset)
      .as('list_page');
    const { vehiculeBrand, vehiculeModel, driverFirstName, driverLastName, guaranteeLabel } = page;
    return pageStatement(tx, {
      register: 'sinisters',
      shown: SHOWN,
      table: sinisters,
      where,
      filtered: filters.length > 0,
      page,
      fields: {
        uuid: page.uuid,
        sinisterIntermediateRef: page.sinisterIntermediateRef,
        sinisterDate: page.sinisterDate,
        city: page.city,
        ida: page.ida,
        hasHumanInjury: page.hasHumanInjury,
        damagedVehicule: page.damagedVehicule,
        isThirdImplicated: page.isThirdImplicated,
        isDeclared: page.isDeclared,
        responsibilityRate: page.responsibilityRate,
        immatriculation: page.immatriculation,
        totalCostCents: page.totalCostCents,
        archivedAt: page.archivedAt,
        createdAt: page.createdAt,
        vehiculeUuid: page.vehiculeUuid,
        vehiculePlate: page.vehiculePlate,
        vehiculeBrand,
        vehiculeModel,
        driverUuid: page.driverUuid,
        driverFirstName,
        driverLastName,
        guaranteeUuid: page.guaranteeUuid,
        guaranteeLabel,
      },
      order,
    });
  };
}

// A claim shows its vehicle's plate and its driver's name: their writes change the list too.
const SHOWN = ['sinisters', 'vehicules', 'drivers'] as const;

/** The version of what the claims list shows, to check a copy of a page against. */
export function listVersion(tx: Tx, organizationUuid: string) {
  return readVersion(tx, organizationUuid, SHOWN);
}

/** One page of claims with the version of what it shows, in one statement. */
export async function listSinisters(tx: Tx, organizationUuid: string, query: ListQuery) {
  const patterns = patternsOf(query.search);
  const shape = listShape(query, patterns);
  const statement = prepared(tx, 'sinisters_list', shape, listStatement(tx));
  const result = await statement.execute({
    organization: organizationUuid,
    limit: query.limit,
    offset: offsetOf(query.page, query.limit),
    garantee: query.garantee ?? null,
    startDate: query.startDate ?? null,
    endDate: query.endDate ?? null,
    ...searchValues(patterns),
  });
  // A row of the page has its claim's NOT NULL columns; only the row of nulls of an empty page lacks them.
  return pageResult(result, shape.archive, (r): SinisterView | null =>
    r.uuid === null || r.createdAt === null
      ? null
      : {
          sinister: {
            uuid: r.uuid,
            sinisterIntermediateRef: r.sinisterIntermediateRef,
            sinisterDate: r.sinisterDate!,
            city: r.city,
            ida: r.ida!,
            hasHumanInjury: r.hasHumanInjury!,
            damagedVehicule: r.damagedVehicule!,
            isThirdImplicated: r.isThirdImplicated!,
            isDeclared: r.isDeclared!,
            responsibilityRate: r.responsibilityRate,
            immatriculation: r.immatriculation,
            totalCostCents: r.totalCostCents!,
            archivedAt: r.archivedAt,
            createdAt: r.createdAt,
          },
          vehicule: r.vehiculeUuid ? { uuid: r.vehiculeUuid, immatriculation: r.vehiculePlate, brand: r.vehiculeBrand, model: r.vehiculeModel } : null,
          driver: r.driverUuid && r.driverFirstName !== null && r.driverLastName !== null ? { uuid: r.driverUuid, firstName: r.driverFirstName, lastName: r.driverLastName } : null,
          guarantee: r.guaranteeUuid && r.guaranteeLabel !== null ? { uuid: r.guaranteeUuid, label: r.guaranteeLabel } : null,
        },
  );
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

export type SinisterRow = NonNullable<Awaited<ReturnType<typeof findSinister>>>;

/** What a claim's JSON is made of: its columns and the summaries of what it links to. */
export type SinisterView = {
  sinister: Pick<
    SinisterRow['sinister'],
    | 'uuid'
    | 'sinisterIntermediateRef'
    | 'sinisterDate'
    | 'city'
    | 'ida'
    | 'hasHumanInjury'
    | 'damagedVehicule'
    | 'isThirdImplicated'
    | 'isDeclared'
    | 'responsibilityRate'
    | 'immatriculation'
    | 'totalCostCents'
    | 'archivedAt'
    | 'createdAt'
  >;
  vehicule: SinisterRow['vehicule'];
  driver: SinisterRow['driver'];
  guarantee: SinisterRow['guarantee'];
};

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
