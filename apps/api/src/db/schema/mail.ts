import { sql } from 'drizzle-orm';
import { check, index, integer, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { organizations } from './organizations.js';

/**
 * pending: waiting for its next attempt; sending: claimed by a deliverer until next_attempt_at
 * (its lease); sent: accepted by the mail server; dead: given up (permanent refusal or too many
 * attempts). Decision 018 (mail outbox).
 */
export const MAIL_STATUSES = ['pending', 'sending', 'sent', 'dead'] as const;
export type MailStatus = (typeof MAIL_STATUSES)[number];

/**
 * E-mails waiting to be delivered, written in the transaction of the change that causes them.
 * A row with an organization is that organization's (row-level security); a row without one
 * (account recovery) is in system scope: only flotte_system sees it.
 */
export const mailOutbox = pgTable(
  'mail_outbox',
  {
    uuid: uuid().primaryKey().defaultRandom(),
    organizationUuid: uuid().references(() => organizations.uuid, { onDelete: 'cascade' }),
    template: text().notNull(),
    recipient: text().notNull(),
    subject: text().notNull(),
    /** The rendered bodies; cleared once sent (a body may carry a one-time link). */
    html: text(),
    text: text(),
    status: text({ enum: MAIL_STATUSES }).notNull().default('pending'),
    attempts: integer().notNull().default(0),
    /** When pending: the next attempt; when sending: the end of the deliverer's lease. */
    nextAttemptAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    lastError: text(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    sentAt: timestamp({ withTimezone: true }),
  },
  (t) => [
    index('mail_outbox_due_idx').on(t.nextAttemptAt).where(sql`${t.status} in ('pending', 'sending')`),
    index('mail_outbox_organization_idx').on(t.organizationUuid, t.createdAt),
    check('mail_outbox_status_check', sql`${t.status} in ('pending', 'sending', 'sent', 'dead')`),
  ],
);
