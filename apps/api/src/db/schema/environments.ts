import { index, integer, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { users } from './users.js';

export const environments = pgTable('environments', {
  uuid: uuid().primaryKey().defaultRandom(),
  title: text().notNull(),
  refererEmail: text(),
  bookingUrl: text(),
  freeOrganizations: integer().notNull().default(0),
  stripeProductId: text(),
  createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
});

export const environmentTiers = pgTable(
  'environment_tiers',
  {
    uuid: uuid().primaryKey().defaultRandom(),
    environmentUuid: uuid()
      .notNull()
      .references(() => environments.uuid, { onDelete: 'cascade' }),
    title: text().notNull(),
    startAt: timestamp({ withTimezone: true }).notNull(),
    endAt: timestamp({ withTimezone: true }),
  },
  (t) => [index('environment_tiers_environment_idx').on(t.environmentUuid, t.startAt)],
);

export const environmentUsers = pgTable(
  'environment_users',
  {
    uuid: uuid().primaryKey().defaultRandom(),
    environmentUuid: uuid()
      .notNull()
      .references(() => environments.uuid, { onDelete: 'cascade' }),
    userUuid: uuid()
      .notNull()
      .references(() => users.uuid, { onDelete: 'cascade' }),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('environment_users_environment_user_key').on(t.environmentUuid, t.userUuid)],
);
