import { type SQL, sql } from 'drizzle-orm';
import { index, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { organizations } from './organizations.js';

export const drivers = pgTable(
  'drivers',
  {
    uuid: uuid().primaryKey().defaultRandom(),
    organizationUuid: uuid()
      .notNull()
      .references(() => organizations.uuid, { onDelete: 'cascade' }),
    firstName: text().notNull(),
    lastName: text().notNull(),
    email: text(),
    phone: text(),
    /** Folded text the search runs on (lower case, no accents), kept by PostgreSQL; see decision 004. */
    searchText: text().generatedAlwaysAs((): SQL => sql`lower(f_unaccent(${drivers.firstName} || ' ' || ${drivers.lastName} || ' ' || coalesce(${drivers.email}, '') || ' ' || coalesce(${drivers.phone}, '')))`),
    /** Sort keys in French reading order (lower case, no accents), stored so a sort never recomputes them. */
    lastNameKey: text().generatedAlwaysAs((): SQL => sql`lower(f_unaccent(${drivers.lastName}))`),
    firstNameKey: text().generatedAlwaysAs((): SQL => sql`lower(f_unaccent(${drivers.firstName}))`),
    archivedAt: timestamp({ withTimezone: true }),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    // Every offered sort key, per organization (FACTS.md: an unindexed sort is a parallel scan).
    index('drivers_org_last_name_idx').on(t.organizationUuid, t.lastNameKey, t.firstNameKey, t.uuid),
    index('drivers_org_first_name_idx').on(t.organizationUuid, t.firstNameKey, t.lastNameKey, t.uuid),
    index('drivers_org_email_idx').on(t.organizationUuid, t.email, t.uuid),
    index('drivers_org_phone_idx').on(t.organizationUuid, t.phone, t.uuid),
    index('drivers_org_created_idx').on(t.organizationUuid, t.createdAt, t.uuid),
    index('drivers_search_trgm_idx').using('gin', sql`${t.searchText} gin_trgm_ops`),
  ],
);
