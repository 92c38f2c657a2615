import { sql } from 'drizzle-orm';
import { bigint, boolean, check, date, index, integer, pgTable, primaryKey, text, unique, uuid } from 'drizzle-orm/pg-core';
import { organizations } from './organizations.js';

/**
 * The dashboard's daily rollups (decision 029): what the figures of decision
 * 022 sum, kept per organization and per day by statement-level triggers in the transaction of
 * every write to the claims or the vehicles (migration 0019). Never written by the application.
 */

/** The breakdowns a claims rollup row belongs to: one row per (day, declared) for the totals, and one per value of each breakdown. */
export const CLAIM_BREAKDOWNS = ['total', 'guarantee', 'responsibility', 'category'] as const;
export type ClaimBreakdown = (typeof CLAIM_BREAKDOWNS)[number];

/**
 * The active (not archived) claims of a day: count and cost (paid + reserve, cents), per declared
 * state and, for each breakdown, per guarantee, responsibility bucket or vehicle category (the
 * category the claim's vehicle has now: a vehicle changing category or deleted moves its claims).
 * The three keys not of the row's breakdown are null; a null of its own breakdown is a real value
 * (no guarantee, no vehicle or no category). Rows whose count falls to zero are deleted.
 */
export const claimDailyTotals = pgTable(
  'claim_daily_totals',
  {
    organizationUuid: uuid()
      .notNull()
      .references(() => organizations.uuid, { onDelete: 'cascade' }),
    breakdown: text({ enum: CLAIM_BREAKDOWNS }).notNull(),
    day: date({ mode: 'string' }).notNull(),
    isDeclared: boolean().notNull(),
    guaranteeUuid: uuid(),
    /** RESPONSIBILITY_BUCKETS of the contract: atFault, shared, notAtFault, unknown. */
    responsibility: text(),
    vehiculeType: text(),
    claims: integer().notNull(),
    costCents: bigint({ mode: 'number' }).notNull(),
  },
  (t) => [
    // The upserts' key; nulls are values here (no guarantee is one group), hence NULLS NOT DISTINCT.
    unique('claim_daily_totals_key')
      .on(t.organizationUuid, t.breakdown, t.day, t.isDeclared, t.guaranteeUuid, t.responsibility, t.vehiculeType)
      .nullsNotDistinct(),
    check('claim_daily_totals_breakdown_check', sql`${t.breakdown} in (${sql.raw(CLAIM_BREAKDOWNS.map((b) => `'${b}'`).join(', '))})`),
    // Rows moved to zero, found at once by the triggers that delete them.
    index('claim_daily_totals_empty_idx').on(t.organizationUuid).where(sql`${t.claims} = 0`),
  ],
);

/**
 * The fleet's movements of a day (decision 022): real vehicles (with a plate) entering that day
 * (no entry date: day 0001-01-01, always there) and gone from that day on (the day after their
 * exit, or after their archiving day when no exit date was kept). Rows back to zero are deleted.
 */
export const fleetDailyMovements = pgTable(
  'fleet_daily_movements',
  {
    organizationUuid: uuid()
      .notNull()
      .references(() => organizations.uuid, { onDelete: 'cascade' }),
    day: date({ mode: 'string' }).notNull(),
    entered: integer().notNull(),
    gone: integer().notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.organizationUuid, t.day] }),
    index('fleet_daily_movements_empty_idx').on(t.organizationUuid).where(sql`${t.entered} = 0 and ${t.gone} = 0`),
  ],
);
