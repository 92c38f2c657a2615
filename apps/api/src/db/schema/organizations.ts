import { index, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { environments } from './environments.js';
import { users } from './users.js';

export const organizations = pgTable(
  'organizations',
  {
    uuid: uuid().primaryKey().defaultRandom(),
    title: text().notNull(),
    avatarUrl: text(),
    environmentUuid: uuid().references(() => environments.uuid, { onDelete: 'set null' }),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('organizations_environment_idx').on(t.environmentUuid)],
);

export const organizationUsers = pgTable(
  'organization_users',
  {
    uuid: uuid().primaryKey().defaultRandom(),
    organizationUuid: uuid()
      .notNull()
      .references(() => organizations.uuid, { onDelete: 'cascade' }),
    userUuid: uuid()
      .notNull()
      .references(() => users.uuid, { onDelete: 'cascade' }),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('organization_users_organization_user_key').on(t.organizationUuid, t.userUuid),
    index('organization_users_user_idx').on(t.userUuid),
  ],
);
