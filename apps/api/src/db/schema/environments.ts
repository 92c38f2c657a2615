import { sql } from 'drizzle-orm';
import { boolean, check, index, integer, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { users } from './users.js';

export const environments = pgTable('environments', {
  uuid: uuid().primaryKey().defaultRandom(),
  title: text().notNull(),
  /** Its logo's versioned public URL (decision 042), the file kept under logos/environments/<uuid>/. */
  logoUrl: text(),
  refererEmail: text(),
  bookingUrl: text(),
  freeOrganizations: integer().notNull().default(0),
  stripeProductId: text(),
  /** Its SUPERADMINs must sign in with a TOTP code too (decision 035). */
  requireSuperadminTotp: boolean().notNull().default(false),
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
    /** Midnight of its start day, Paris time (decision 043). */
    startAt: timestamp({ withTimezone: true }).notNull(),
    endAt: timestamp({ withTimezone: true }),
    /** Per vehicle per month, euro cents excluding VAT. */
    priceCents: integer().notNull().default(0),
    includedOrganizations: integer().notNull().default(0),
    freeOrganizations: integer().notNull().default(0),
  },
  (t) => [
    index('environment_tiers_environment_idx').on(t.environmentUuid, t.startAt),
    // One tier per start: « the latest whose start has passed » is then always one tier.
    uniqueIndex('environment_tiers_environment_start_key').on(t.environmentUuid, t.startAt),
    check('environment_tiers_counts_check', sql`${t.priceCents} >= 0 and ${t.includedOrganizations} >= 0 and ${t.freeOrganizations} >= 0`),
  ],
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
    /** The daily digest of the clients' new automatic alerts (decision 037): on unless turned off. */
    alertDigest: boolean().notNull().default(true),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('environment_users_environment_user_key').on(t.environmentUuid, t.userUuid)],
);
