import { sql } from 'drizzle-orm';
import { type AnyPgColumn, bigint, check, date, index, integer, pgTable, timestamp, uuid } from 'drizzle-orm/pg-core';
import { organizations } from './organizations.js';

/**
 * An organization's insurance periods (DOMAIN.md "Periods"). Money in cents. No overlap between
 * two periods of one organization: the service checks it under a per-organization lock (an
 * exclusion constraint needs btree_gist, which the embedded database does not ship).
 */
export const indicators = pgTable(
  'indicators',
  {
    uuid: uuid().primaryKey().defaultRandom(),
    organizationUuid: uuid()
      .notNull()
      .references(() => organizations.uuid, { onDelete: 'cascade' }),
    startDate: date({ mode: 'string' }).notNull(),
    endDate: date({ mode: 'string' }).notNull(),
    motorsCount: integer().notNull(),
    cashReceivedCents: bigint({ mode: 'number' }).notNull(),
    previousIndicatorUuid: uuid().references((): AnyPgColumn => indicators.uuid, { onDelete: 'set null' }),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('indicators_org_start_idx').on(t.organizationUuid, t.startDate),
    check('indicators_dates_check', sql`${t.startDate} <= ${t.endDate}`),
    check('indicators_motors_count_check', sql`${t.motorsCount} >= 0`),
    check('indicators_cash_received_check', sql`${t.cashReceivedCents} >= 0`),
  ],
);

/** The dashboard's limits of one organization; no row means the defaults (70 % and 20 %). */
export const dashboardConfigs = pgTable(
  'dashboard_configs',
  {
    organizationUuid: uuid()
      .primaryKey()
      .references(() => organizations.uuid, { onDelete: 'cascade' }),
    lossRatioPercentage: integer().notNull(),
    claimFrequencyPercentage: integer().notNull(),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check('dashboard_configs_loss_ratio_check', sql`${t.lossRatioPercentage} between 1 and 1000`),
    check('dashboard_configs_claim_frequency_check', sql`${t.claimFrequencyPercentage} between 1 and 1000`),
  ],
);
