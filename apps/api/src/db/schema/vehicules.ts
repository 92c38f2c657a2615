import { type SQL, sql } from 'drizzle-orm';
import { date, index, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { registerIndexes, registerKeyColumns, registerTimeColumns } from './registers.js';

export const vehicules = pgTable(
  'vehicules',
  {
    ...registerKeyColumns(),
    brand: text(),
    model: text(),
    /** Category code (VEHICULE_TYPES of the contract). */
    type: text(),
    circulationDate: date({ mode: 'string' }),
    entryDate: date({ mode: 'string' }),
    exitDate: date({ mode: 'string' }),
    /** Normalised plate; null while the vehicle is a draft (create-empty). */
    immatriculation: text(),
    /** Folded text the search runs on (lower case, no accents), kept by PostgreSQL; see decision 004. */
    searchText: text().generatedAlwaysAs((): SQL => sql`lower(f_unaccent(coalesce(${vehicules.immatriculation}, '') || ' ' || coalesce(${vehicules.brand}, '') || ' ' || coalesce(${vehicules.model}, '')))`),
    /** Sort keys in French reading order (lower case, no accents), stored so a sort never recomputes them. */
    brandKey: text().generatedAlwaysAs((): SQL => sql`lower(f_unaccent(${vehicules.brand}))`),
    modelKey: text().generatedAlwaysAs((): SQL => sql`lower(f_unaccent(${vehicules.model}))`),
    ...registerTimeColumns(),
  },
  (t) => [
    // Two active vehicles of one organization never share a plate.
    uniqueIndex('vehicules_org_plate_active_key')
      .on(t.organizationUuid, t.immatriculation)
      .where(sql`${t.archivedAt} is null and ${t.immatriculation} is not null`),
    ...registerIndexes('vehicules', t, { plate: t.immatriculation, brand: t.brandKey, model: t.modelKey, type: t.type, circulation: t.circulationDate, entry: t.entryDate, exit: t.exitDate, created: t.createdAt }),
    index('vehicules_drafts_idx').on(t.createdAt).where(sql`${t.immatriculation} is null`),
  ],
);
