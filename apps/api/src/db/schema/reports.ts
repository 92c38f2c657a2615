import { check, index, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { sql } from 'drizzle-orm';
import { organizations } from './organizations.js';
import { users } from './users.js';

export const reports = pgTable(
  'reports',
  {
    uuid: uuid().primaryKey().defaultRandom(),
    organizationUuid: uuid()
      .notNull()
      .references(() => organizations.uuid, { onDelete: 'cascade' }),
    authorUuid: uuid().references(() => users.uuid, { onDelete: 'set null' }),
    title: text().notNull(),
    description: text().notNull(),
    type: text({ enum: ['bug', 'suggestion'] }).notNull(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('reports_organization_idx').on(t.organizationUuid, t.createdAt),
    check('reports_type_check', sql`${t.type} in ('bug', 'suggestion')`),
    check('reports_description_length', sql`char_length(${t.description}) <= 800`),
  ],
);
