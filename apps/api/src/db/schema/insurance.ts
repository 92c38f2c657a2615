import { sql } from 'drizzle-orm';
import { bigint, check, date, index, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { organizations } from './organizations.js';
import { guarantees } from './sinisters.js';
import { users } from './users.js';

/**
 * The fleet contract, one row per version: a save inserts a new row, the newest one is in force
 * (history kept). Amounts in cents, never a float.
 */
export const insuranceContracts = pgTable(
  'insurance_contracts',
  {
    uuid: uuid().primaryKey().defaultRandom(),
    organizationUuid: uuid()
      .notNull()
      .references(() => organizations.uuid, { onDelete: 'cascade' }),
    insurer: text().notNull(),
    policyNumber: text().notNull(),
    startDate: date({ mode: 'string' }).notNull(),
    renewalDate: date({ mode: 'string' }).notNull(),
    annualPremiumCents: bigint({ mode: 'number' }).notNull(),
    authorUuid: uuid().references(() => users.uuid, { onDelete: 'set null' }),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('insurance_contracts_organization_idx').on(t.organizationUuid, t.createdAt),
    check('insurance_contracts_premium_check', sql`${t.annualPremiumCents} >= 0`),
    check('insurance_contracts_dates_check', sql`${t.renewalDate} > ${t.startDate}`),
  ],
);

/** The guarantees one version covers, each with its deductible (franchise). */
export const insuranceContractGuarantees = pgTable(
  'insurance_contract_guarantees',
  {
    uuid: uuid().primaryKey().defaultRandom(),
    organizationUuid: uuid()
      .notNull()
      .references(() => organizations.uuid, { onDelete: 'cascade' }),
    contractUuid: uuid()
      .notNull()
      .references(() => insuranceContracts.uuid, { onDelete: 'cascade' }),
    guaranteeUuid: uuid()
      .notNull()
      .references(() => guarantees.uuid, { onDelete: 'restrict' }),
    deductibleCents: bigint({ mode: 'number' }).notNull(),
  },
  (t) => [
    uniqueIndex('insurance_contract_guarantees_unique').on(t.contractUuid, t.guaranteeUuid),
    check('insurance_contract_guarantees_deductible_check', sql`${t.deductibleCents} >= 0`),
  ],
);

/** The organization's intermediaries, all kept; the current one is the latest started. */
export const insuranceIntermediaries = pgTable(
  'insurance_intermediaries',
  {
    uuid: uuid().primaryKey().defaultRandom(),
    organizationUuid: uuid()
      .notNull()
      .references(() => organizations.uuid, { onDelete: 'cascade' }),
    name: text().notNull(),
    contactLastName: text().notNull(),
    contactFirstName: text().notNull(),
    email: text().notNull(),
    productionEmail: text().notNull(),
    startDate: timestamp({ withTimezone: true }).notNull(),
    authorUuid: uuid().references(() => users.uuid, { onDelete: 'set null' }),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('insurance_intermediaries_organization_idx').on(t.organizationUuid, t.startDate)],
);
