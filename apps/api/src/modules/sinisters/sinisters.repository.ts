import { asc, eq, gt, gte, lte, sql } from 'drizzle-orm';
import { centsToEuros, ListSinistersQuerySchema, normalizePlate, SINISTER_HEADERS as H, SINISTER_STATUS_LABELS } from '@flotte/contract';
import { choice, defineList, toggle, value } from '../../db/list-kit.js';
import type { ReadTx } from '../../db/scope.js';
import { entityFilesColumn } from '../documents/entity-files.js';
import { drivers } from '../../db/schema/drivers.js';
import { guarantees, sinisters } from '../../db/schema/sinisters.js';
import { vehicules } from '../../db/schema/vehicules.js';
import { claimDailyTotals } from '../../db/schema/daily-totals.js';

/** A claim's own columns, as the list reads them (and the import compares them, modules/import). */
export const claimColumns = {
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
  status: sinisters.status,
  openedAt: sinisters.openedAt,
  closedAt: sinisters.closedAt,
  paidCents: sinisters.paidCents,
  reserveCents: sinisters.reserveCents,
  description: sinisters.description,
  archivedAt: sinisters.archivedAt,
  createdAt: sinisters.createdAt,
};

/** Claims' filters (SPEC 2, 7): toggles, the declared state, responsibility, guarantee, period, one vehicle or driver. */
export const sinisterList = defineList({
  query: ListSinistersQuerySchema,
  register: 'sinisters',
  table: sinisters,
  columns: {
    ...claimColumns,
    vehiculeUuid: vehicules.uuid,
    vehiculePlate: vehicules.immatriculation,
    vehiculeBrand: vehicules.brand,
    vehiculeModel: vehicules.model,
    driverUuid: drivers.uuid,
    driverFirstName: drivers.firstName,
    driverLastName: drivers.lastName,
    guaranteeUuid: guarantees.uuid,
    guaranteeLabel: guarantees.label,
  },
  // Each row's files (SPEC 3), in the page's statement.
  pageColumns: { documents: entityFilesColumn('sinister', sinisters) },
  // The links are optional; row-level security limits the vehicles and drivers to the organization.
  joins: (select) =>
    select
      .leftJoin(vehicules, eq(vehicules.uuid, sinisters.vehiculeUuid))
      .leftJoin(drivers, eq(drivers.uuid, sinisters.driverUuid))
      .leftJoin(guarantees, eq(guarantees.uuid, sinisters.guaranteeUuid)),
  // A claim shows its vehicle's plate and its driver's name: their writes change the list too.
  shows: ['vehicules', 'drivers'],
  archive: sinisters.archivedAt,
  // Each key has its (organization_uuid, key, uuid) index (migrations 0003, 0007).
  sort: {
    keys: {
      sinisterDate: sinisters.sinisterDate,
      sinisterIntermediateRef: sinisters.sinisterIntermediateRef,
      city: sinisters.cityKey,
      totalCost: sinisters.totalCostCents,
      immatriculation: sinisters.immatriculation,
      createdAt: sinisters.createdAt,
    },
    default: '-sinisterDate',
  },
  filters: {
    // showDeclared alone: declared only; showNotDeclared alone: the others; both or neither: all.
    declared: {
      kind: 'choice',
      cases: { declared: eq(sinisters.isDeclared, true), notDeclared: eq(sinisters.isDeclared, false) },
      read: (q) => (Boolean(q.showDeclared) === Boolean(q.showNotDeclared) ? undefined : q.showDeclared ? 'declared' : 'notDeclared'),
    },
    // 'me': at fault in any share; 'other': not at fault. A rate not known yet matches neither.
    responsible: choice({ me: gt(sinisters.responsibilityRate, 0), other: eq(sinisters.responsibilityRate, 0) }),
    hasHumanInjury: toggle(eq(sinisters.hasHumanInjury, true)),
    damagedVehicule: toggle(eq(sinisters.damagedVehicule, true)),
    isThirdImplicated: toggle(eq(sinisters.isThirdImplicated, true)),
    status: value((status) => eq(sinisters.status, sql`${status}`)),
    garantee: value((uuid) => eq(sinisters.guaranteeUuid, uuid)),
    vehicule: value((uuid) => eq(sinisters.vehiculeUuid, uuid)),
    driver: value((uuid) => eq(sinisters.driverUuid, uuid)),
    startDate: value((date) => gte(sinisters.sinisterDate, sql`${date}::date`)),
    endDate: value((date) => lte(sinisters.sinisterDate, sql`${date}::date`)),
  },
  // Reference, city, plate or driver's name; the plate also without its separators ('ab-123' finds AB123CD).
  search: { column: sinisters.searchText, alsoAs: (term) => [normalizePlate(term)] },
  // The claims screen's "n sinistres · total": paid and reserves of every claim the filters match.
  // Over a period (and the declared state) only, the dashboard's daily totals hold it (decision 029).
  sums: {
    totalCost: {
      column: sinisters.totalCostCents,
      as: centsToEuros,
      rollup: {
        table: claimDailyTotals,
        column: claimDailyTotals.costCents,
        organization: claimDailyTotals.organizationUuid,
        where: eq(claimDailyTotals.breakdown, 'total'),
        filters: {
          declared: (state) => eq(claimDailyTotals.isDeclared, state === 'declared'),
          startDate: (date) => gte(claimDailyTotals.day, sql`${date}::date`),
          endDate: (date) => lte(claimDailyTotals.day, sql`${date}::date`),
        },
      },
    },
  },
  exports: {
    file: 'sinistres',
    sheet: 'Sinistres',
    columns: [
      { header: H.sinisterIntermediateRef, type: 'text', value: (s) => s.sinisterIntermediateRef, width: 16 },
      { header: H.sinisterDate, type: 'date', value: (s) => s.sinisterDate, width: 14 },
      { header: H.city, type: 'text', value: (s) => s.city, width: 18 },
      { header: H.immatriculation, type: 'plate', value: (s) => s.vehiculePlate ?? s.immatriculation, width: 16 },
      { header: H.driverLastName, type: 'text', value: (s) => s.driverLastName, width: 18 },
      { header: H.driverFirstName, type: 'text', value: (s) => s.driverFirstName, width: 18 },
      { header: H.guarantee, type: 'text', value: (s) => s.guaranteeLabel, width: 22 },
      { header: H.status, type: 'text', value: (s) => SINISTER_STATUS_LABELS[s.status], width: 10 },
      { header: H.isDeclared, type: 'boolean', value: (s) => s.isDeclared },
      { header: H.responsibilityRate, type: 'number', value: (s) => s.responsibilityRate, width: 18 },
      { header: H.hasHumanInjury, type: 'boolean', value: (s) => s.hasHumanInjury },
      { header: H.damagedVehicule, type: 'boolean', value: (s) => s.damagedVehicule },
      { header: H.isThirdImplicated, type: 'boolean', value: (s) => s.isThirdImplicated },
      { header: H.ida, type: 'boolean', value: (s) => s.ida, width: 8 },
      { header: H.openedAt, type: 'date', value: (s) => s.openedAt, width: 14 },
      { header: H.closedAt, type: 'date', value: (s) => s.closedAt, width: 14 },
      { header: H.paidAmount, type: 'euros', value: (s) => centsToEuros(s.paidCents), width: 14 },
      { header: H.reserveAmount, type: 'euros', value: (s) => centsToEuros(s.reserveCents), width: 14 },
      { header: H.totalCost, type: 'euros', value: (s) => centsToEuros(s.totalCostCents), width: 14 },
      { header: H.description, type: 'text', value: (s) => s.description, width: 40 },
    ],
  },
});

export type SinisterRow = NonNullable<typeof sinisterList.row>;

// driverName is the triggers' (migration 0009): a claim never sets it itself.
// totalCostCents is PostgreSQL's (paid + reserve): never written.
export type SinisterValues = Omit<typeof sinisters.$inferInsert, 'uuid' | 'organizationUuid' | 'driverName' | 'archivedAt' | 'createdAt' | 'updatedAt'>;

/** Link targets: row-level security already limits vehicles and drivers to the organization. */
export async function findVehiculeLink(tx: ReadTx, uuid: string) {
  const [row] = await tx.select({ uuid: vehicules.uuid, immatriculation: vehicules.immatriculation }).from(vehicules).where(eq(vehicules.uuid, uuid)).limit(1);
  return row ?? null;
}

export async function findDriverLink(tx: ReadTx, uuid: string) {
  const [row] = await tx.select({ uuid: drivers.uuid }).from(drivers).where(eq(drivers.uuid, uuid)).limit(1);
  return row ?? null;
}

export async function findGuarantee(tx: ReadTx, uuid: string) {
  const [row] = await tx.select({ uuid: guarantees.uuid }).from(guarantees).where(eq(guarantees.uuid, uuid)).limit(1);
  return row ?? null;
}

export function listGuarantees(tx: ReadTx) {
  return tx.select({ uuid: guarantees.uuid, label: guarantees.label }).from(guarantees).orderBy(asc(guarantees.position), asc(guarantees.label));
}
