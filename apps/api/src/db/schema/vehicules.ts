import { type SQL, sql } from 'drizzle-orm';
import { date, index, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { organizations } from './organizations.js';

export const vehicules = pgTable(
  'vehicules',
  {
    uuid: uuid().primaryKey().defaultRandom(),
    organizationUuid: uuid()
      .notNull()
      .references(() => organizations.uuid, { onDelete: 'cascade' }),
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
    archivedAt: timestamp({ withTimezone: true }),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    // Two active vehicles of one organization never share a plate.
    uniqueIndex('vehicules_org_plate_active_key')
      .on(t.organizationUuid, t.immatriculation)
      .where(sql`${t.archivedAt} is null and ${t.immatriculation} is not null`),
    index('vehicules_org_plate_idx').on(t.organizationUuid, t.immatriculation, t.uuid),
    index('vehicules_org_brand_idx').on(t.organizationUuid, t.brandKey, t.uuid),
    index('vehicules_org_model_idx').on(t.organizationUuid, t.modelKey, t.uuid),
    index('vehicules_org_type_idx').on(t.organizationUuid, t.type, t.uuid),
    index('vehicules_org_circulation_idx').on(t.organizationUuid, t.circulationDate, t.uuid),
    index('vehicules_org_entry_idx').on(t.organizationUuid, t.entryDate, t.uuid),
    index('vehicules_org_exit_idx').on(t.organizationUuid, t.exitDate, t.uuid),
    index('vehicules_org_created_idx').on(t.organizationUuid, t.createdAt, t.uuid),
    index('vehicules_drafts_idx').on(t.createdAt).where(sql`${t.immatriculation} is null`),
    index('vehicules_search_trgm_idx').using('gin', sql`${t.searchText} gin_trgm_ops`),
  ],
);
