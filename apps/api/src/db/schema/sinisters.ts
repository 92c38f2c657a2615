import { type SQL, sql } from 'drizzle-orm';
import { bigint, boolean, check, date, index, integer, pgTable, smallint, text, uuid } from 'drizzle-orm/pg-core';
import { registerIndexes, registerKeyColumns, registerTimeColumns } from './registers.js';
import { drivers } from './drivers.js';
import { vehicules } from './vehicules.js';

/** The coverage list of DOMAIN.md; global, editable by ROOT. */
export const guarantees = pgTable('guarantees', {
  uuid: uuid().primaryKey().defaultRandom(),
  label: text().notNull().unique(),
  position: integer().notNull().default(0),
});

export const sinisters = pgTable(
  'sinisters',
  {
    ...registerKeyColumns(),
    vehiculeUuid: uuid().references(() => vehicules.uuid, { onDelete: 'set null' }),
    driverUuid: uuid().references(() => drivers.uuid, { onDelete: 'set null' }),
    guaranteeUuid: uuid().references(() => guarantees.uuid, { onDelete: 'set null' }),
    sinisterIntermediateRef: text(),
    sinisterDate: date({ mode: 'string' }).notNull(),
    city: text(),
    ida: boolean().notNull().default(false),
    hasHumanInjury: boolean().notNull().default(false),
    damagedVehicule: boolean().notNull().default(false),
    isThirdImplicated: boolean().notNull().default(false),
    isDeclared: boolean().notNull().default(false),
    responsibilityRate: smallint(),
    /** The plate as declared (normalised); kept when the vehicle is deleted. */
    immatriculation: text(),
    /** Where the claim stands (SINISTER_STATUSES): open, inProgress, closed, refused. */
    status: text({ enum: ['open', 'inProgress', 'closed', 'refused'] }).notNull().default('open'),
    /** The day the claim's file was opened; null when not known. */
    openedAt: date({ mode: 'string' }),
    /** The day it was closed or refused: set exactly when it is (a check). */
    closedAt: date({ mode: 'string' }),
    /** Paid out, in cents: never a float. */
    paidCents: bigint({ mode: 'number' }).notNull().default(0),
    /** Reserved for what is still to pay, in cents; 0 once closed or refused (a check). */
    reserveCents: bigint({ mode: 'number' }).notNull().default(0),
    /**
     * Paid amounts and reserves, in cents: what the loss ratio sums (DOMAIN.md). Kept by
     * PostgreSQL, never written: it cannot differ from paid + reserve.
     */
    totalCostCents: bigint({ mode: 'number' })
      .notNull()
      .generatedAlwaysAs((): SQL => sql`${sinisters.paidCents} + ${sinisters.reserveCents}`),
    /** The circumstances, free text. */
    description: text(),
    /**
     * The driver's name as the search reads it, kept by triggers (migration 0009): set from the
     * driver when the claim is written, followed when the driver is renamed, cleared with the link.
     */
    driverName: text(),
    /** Folded text the search runs on (lower case, no accents), kept by PostgreSQL; see decision 004. */
    searchText: text().generatedAlwaysAs(
      (): SQL =>
        sql`lower(f_unaccent(coalesce(${sinisters.sinisterIntermediateRef}, '') || ' ' || coalesce(${sinisters.immatriculation}, '') || ' ' || coalesce(${sinisters.city}, '') || ' ' || coalesce(${sinisters.driverName}, '')))`,
    ),
    /** Sort key of the city in French reading order, stored so a sort never recomputes it. */
    cityKey: text().generatedAlwaysAs((): SQL => sql`lower(f_unaccent(${sinisters.city}))`),
    ...registerTimeColumns(),
  },
  (t) => [
    check('sinisters_responsibility_rate_check', sql`${t.responsibilityRate} in (0, 25, 50, 75, 100)`),
    check('sinisters_paid_check', sql`${t.paidCents} >= 0`),
    check('sinisters_reserve_check', sql`${t.reserveCents} >= 0`),
    check('sinisters_status_check', sql`${t.status} in ('open', 'inProgress', 'closed', 'refused')`),
    // Closed or refused: a closing date and no reserve; open or in progress: no closing date.
    check('sinisters_settled_check', sql`(${t.status} in ('closed', 'refused')) = (${t.closedAt} is not null) and (${t.status} not in ('closed', 'refused') or ${t.reserveCents} = 0)`),
    ...registerIndexes('sinisters', t, { date: t.sinisterDate, ref: t.sinisterIntermediateRef, city: t.cityKey, cost: t.totalCostCents, plate: t.immatriculation, created: t.createdAt }),
    index('sinisters_vehicule_idx').on(t.vehiculeUuid),
    index('sinisters_driver_idx').on(t.driverUuid),
  ],
);
