import { and, eq, gte, isNotNull, isNull, lt, lte, ne, or, sql } from 'drizzle-orm';
import type { z } from 'zod';
import { ListVehiculeChoicesQuerySchema, ListVehiculesQuerySchema, normalizePlate, VEHICULE_HEADERS as H, type VehiculeTypeCode, vehiculeTypeLabel } from '@flotte/contract';
import { defineList, matching, value } from '../../db/list-kit.js';
import type { ReadTx, WriteTx } from '../../db/scope.js';
import { vehicules } from '../../db/schema/vehicules.js';
import { entityFilesColumn } from '../documents/entity-files.js';

// Brand and model as typed, and the plate in any spelling ('ab-123', 'AB 123 CD'): plates are stored without separators.
const search = { column: vehicules.searchText, alsoAs: (term: string) => [normalizePlate(term)] };

/** The vehicles register (docs/adding-a-register.md): drafts (create-empty, no plate yet) are not in it. */
export const vehiculeList = defineList({
  query: ListVehiculesQuerySchema,
  register: 'vehicules',
  table: vehicules,
  columns: {
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
  },
  // Each row's files (SPEC 3), in the page's statement.
  pageColumns: { documents: entityFilesColumn('vehicule', vehicules) },
  where: isNotNull(vehicules.immatriculation),
  archive: vehicules.archivedAt,
  // Each key has its (organization_uuid, key, uuid) index (migrations 0003, 0007).
  sort: {
    keys: {
      immatriculation: vehicules.immatriculation,
      brand: vehicules.brandKey,
      model: vehicules.modelKey,
      type: vehicules.type,
      circulationDate: vehicules.circulationDate,
      entryDate: vehicules.entryDate,
      exitDate: vehicules.exitDate,
      createdAt: vehicules.createdAt,
    },
    default: 'immatriculation',
  },
  filters: {
    types: value((types) => sql`${vehicules.type} = any(${types}::text[])`),
    // In the fleet at some point of [start, end]: entered by the end, not gone before the start.
    end: value((end) => or(isNull(vehicules.entryDate), lte(vehicules.entryDate, sql`${end}::date`))),
    start: value((start) => or(isNull(vehicules.exitDate), gte(vehicules.exitDate, sql`${start}::date`))),
  },
  search,
  exports: {
    file: 'vehicules',
    sheet: 'Véhicules',
    columns: [
      { header: H.immatriculation, type: 'plate', value: (v) => v.immatriculation, width: 16 },
      { header: H.brand, type: 'text', value: (v) => v.brand, width: 18 },
      { header: H.model, type: 'text', value: (v) => v.model, width: 18 },
      { header: H.type, type: 'text', value: (v) => (v.type ? vehiculeTypeLabel(v.type) : null), width: 28 },
      { header: H.circulationDate, type: 'date', value: (v) => v.circulationDate, width: 14 },
      { header: H.entryDate, type: 'date', value: (v) => v.entryDate, width: 14 },
      { header: H.exitDate, type: 'date', value: (v) => v.exitDate, width: 14 },
    ],
  },
});

/** The fleet's vehicles a form offers (the claim's vehicle): in service, by plate, light. */
export const vehiculeChoiceList = defineList({
  query: ListVehiculeChoicesQuerySchema,
  name: 'vehicule_choices',
  register: 'vehicules',
  table: vehicules,
  columns: { uuid: vehicules.uuid, immatriculation: vehicules.immatriculation, brand: vehicules.brand, model: vehicules.model },
  where: and(isNotNull(vehicules.immatriculation), isNull(vehicules.archivedAt)),
  sort: { keys: { immatriculation: vehicules.immatriculation }, default: 'immatriculation' },
  search,
});

export type VehiculeRow = NonNullable<typeof vehiculeList.row>;
export type VehiculeChoiceRow = NonNullable<typeof vehiculeChoiceList.row>;

/** The active vehicle of the organization holding this (normalised) plate, other than exceptUuid. */
export async function findActiveByPlate(tx: ReadTx, organizationUuid: string, immatriculation: string, exceptUuid?: string) {
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

/** Drafts (create-empty) never completed within a day are abandoned forms. */
export async function purgeDrafts(tx: WriteTx, organizationUuid: string) {
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

/** Moves every vehicle the list's filters match to one category; counts the rows actually changed. */
export async function setCategory(
  tx: WriteTx,
  organizationUuid: string,
  query: Omit<z.output<typeof ListVehiculesQuerySchema>, 'page' | 'limit'>,
  type: VehiculeTypeCode,
) {
  const rows = await tx
    .update(vehicules)
    .set({ type, updatedAt: new Date() })
    .where(and(matching(vehiculeList, organizationUuid, query), sql`${vehicules.type} is distinct from ${type}`))
    .returning({ uuid: vehicules.uuid });
  return rows.length;
}
