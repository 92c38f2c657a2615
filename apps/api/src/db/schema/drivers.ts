import { type SQL, sql } from 'drizzle-orm';
import { pgTable, text } from 'drizzle-orm/pg-core';
import { registerIndexes, registerKeyColumns, registerTimeColumns } from './registers.js';

export const drivers = pgTable(
  'drivers',
  {
    ...registerKeyColumns(),
    firstName: text().notNull(),
    lastName: text().notNull(),
    email: text(),
    phone: text(),
    /** Folded text the search runs on (lower case, no accents), kept by PostgreSQL; see decision 004. */
    searchText: text().generatedAlwaysAs((): SQL => sql`lower(f_unaccent(${drivers.firstName} || ' ' || ${drivers.lastName} || ' ' || coalesce(${drivers.email}, '') || ' ' || coalesce(${drivers.phone}, '')))`),
    /** Sort keys in French reading order (lower case, no accents), stored so a sort never recomputes them. */
    lastNameKey: text().generatedAlwaysAs((): SQL => sql`lower(f_unaccent(${drivers.lastName}))`),
    firstNameKey: text().generatedAlwaysAs((): SQL => sql`lower(f_unaccent(${drivers.firstName}))`),
    ...registerTimeColumns(),
  },
  (t) => [
    // Every offered sort key, per organization (FACTS.md: an unindexed sort is a parallel scan).
    ...registerIndexes('drivers', t, { last_name: [t.lastNameKey, t.firstNameKey], first_name: [t.firstNameKey, t.lastNameKey], email: t.email, phone: t.phone, created: t.createdAt }),
  ],
);
