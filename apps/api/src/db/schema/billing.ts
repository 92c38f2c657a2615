import { sql } from 'drizzle-orm';
import { bigint, check, index, integer, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { organizations } from './organizations.js';
import { users } from './users.js';

/**
 * Billing (issue 17, decision 044). The catalogue of plans is the platform's (a directory table,
 * read by every member); an organization's checkouts, subscription and invoices are its data under
 * forced row-level security. Subscriptions and invoices change only from the provider's events
 * (platform/billing/events.ts), each applied once (billing_events).
 */
export const billingPlans = pgTable(
  'billing_plans',
  {
    /** A stable code ('essentiel', 'pro'): the plan's id in the API and the product of the checkout. */
    id: text().primaryKey(),
    name: text().notNull(),
    description: text().notNull(),
    /** Per vehicle per month, excluding VAT (HT), in cents. */
    monthlyCents: integer().notNull(),
    /** Per vehicle per month when paid by the year, HT, in cents. */
    yearlyMonthlyCents: integer().notNull(),
    /** The menu features it unlocks ('documents', 'alerts'). */
    features: text().array().notNull(),
    position: integer().notNull().default(0),
  },
  (t) => [check('billing_plans_prices_check', sql`${t.monthlyCents} >= 0 and ${t.yearlyMonthlyCents} >= 0`)],
);

/** A checkout an organization's administrator started: the provider's session and what it buys. */
export const billingCheckouts = pgTable(
  'billing_checkouts',
  {
    uuid: uuid().primaryKey().defaultRandom(),
    organizationUuid: uuid()
      .notNull()
      .references(() => organizations.uuid, { onDelete: 'cascade' }),
    provider: text().notNull(),
    sessionId: text().notNull().unique(),
    planId: text()
      .notNull()
      .references(() => billingPlans.id),
    interval: text().notNull(),
    quantity: integer().notNull(),
    /** open → complete (paid) or expired; set by checkout.session.* events only. */
    status: text().notNull().default('open'),
    url: text().notNull(),
    createdByUuid: uuid().references(() => users.uuid, { onDelete: 'set null' }),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('billing_checkouts_organization_idx').on(t.organizationUuid, t.createdAt.desc()),
    check('billing_checkouts_interval_check', sql`${t.interval} in ('month', 'year')`),
    check('billing_checkouts_status_check', sql`${t.status} in ('open', 'complete', 'expired')`),
  ],
);

/**
 * The organization's subscription at its provider, as the last applied event left it. `eventAt` is
 * the creation time of that event: an older event arriving later changes nothing (decision 044).
 */
export const billingSubscriptions = pgTable(
  'billing_subscriptions',
  {
    uuid: uuid().primaryKey().defaultRandom(),
    organizationUuid: uuid()
      .notNull()
      .references(() => organizations.uuid, { onDelete: 'cascade' }),
    provider: text().notNull(),
    subscriptionId: text().notNull().unique(),
    customerId: text(),
    itemId: text(),
    planId: text()
      .notNull()
      .references(() => billingPlans.id),
    interval: text().notNull(),
    status: text().notNull(),
    quantity: integer().notNull(),
    currentPeriodStart: timestamp({ withTimezone: true }),
    currentPeriodEnd: timestamp({ withTimezone: true }),
    cancelAt: timestamp({ withTimezone: true }),
    eventAt: bigint({ mode: 'number' }).notNull(),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('billing_subscriptions_organization_idx').on(t.organizationUuid),
    check('billing_subscriptions_interval_check', sql`${t.interval} in ('month', 'year')`),
  ],
);

/** An invoice of the subscription; its status only moves forward (draft → open → paid / void / uncollectible). */
export const billingInvoices = pgTable(
  'billing_invoices',
  {
    uuid: uuid().primaryKey().defaultRandom(),
    organizationUuid: uuid()
      .notNull()
      .references(() => organizations.uuid, { onDelete: 'cascade' }),
    provider: text().notNull(),
    invoiceId: text().notNull().unique(),
    subscriptionId: text(),
    number: text(),
    status: text().notNull(),
    amountHtCents: integer().notNull(),
    amountTtcCents: integer().notNull(),
    currency: text().notNull().default('eur'),
    periodStart: timestamp({ withTimezone: true }),
    periodEnd: timestamp({ withTimezone: true }),
    issuedAt: timestamp({ withTimezone: true }).notNull(),
    pdfUrl: text(),
    eventAt: bigint({ mode: 'number' }).notNull(),
  },
  (t) => [index('billing_invoices_organization_idx').on(t.organizationUuid, t.issuedAt.desc())],
);

/** Every provider event applied, by its id: a replay (the provider retries) is applied once. */
export const billingEvents = pgTable(
  'billing_events',
  {
    eventId: text().primaryKey(),
    type: text().notNull(),
    organizationUuid: uuid(),
    receivedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('billing_events_received_idx').on(t.receivedAt, t.eventId)],
);
