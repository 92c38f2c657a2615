import { sql } from 'drizzle-orm';
import { check, index, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { environments } from './environments.js';
import { organizations } from './organizations.js';
import { users } from './users.js';

/**
 * A prevention alert a superadmin wrote for the client organizations of its environment (issue 16,
 * decision 037). The environment's data, not an organization's: read and written in system scope by
 * the environment's superadmins. Each recipient organization gets its own copy in
 * organization_alerts when it is written (the target resolved then), which its members read.
 */
export const preventionAlerts = pgTable(
  'prevention_alerts',
  {
    uuid: uuid().primaryKey().defaultRandom(),
    environmentUuid: uuid()
      .notNull()
      .references(() => environments.uuid, { onDelete: 'cascade' }),
    authorUuid: uuid().references(() => users.uuid, { onDelete: 'set null' }),
    title: text().notNull(),
    body: text().notNull(),
    severity: text().notNull(),
    targetKind: text().notNull(),
    targetRule: text(),
    publishAt: timestamp({ withTimezone: true }).notNull(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('prevention_alerts_environment_idx').on(t.environmentUuid, t.publishAt.desc()),
    check('prevention_alerts_severity_check', sql`${t.severity} in ('information', 'attention', 'urgent')`),
    check('prevention_alerts_target_check', sql`${t.targetKind} in ('all', 'organizations', 'rule') and (${t.targetKind} = 'rule') = (${t.targetRule} is not null)`),
  ],
);

/**
 * The alerts of one organization, as its members read them on /alerts: a copy of a written alert
 * (source 'written'), or one the product raised itself (source 'automatic') for a cause named by
 * `cause_key` — unique per organization, so a cause is never raised twice: when it goes away the
 * alert is closed (closed_at), and reopened if it comes back.
 */
export const organizationAlerts = pgTable(
  'organization_alerts',
  {
    uuid: uuid().primaryKey().defaultRandom(),
    organizationUuid: uuid()
      .notNull()
      .references(() => organizations.uuid, { onDelete: 'cascade' }),
    source: text().notNull(),
    preventionAlertUuid: uuid().references(() => preventionAlerts.uuid, { onDelete: 'cascade' }),
    rule: text(),
    causeKey: text(),
    severity: text().notNull(),
    title: text().notNull(),
    body: text().notNull(),
    linkHref: text(),
    linkLabel: text(),
    /** When members see it: a written alert's publication date, an automatic one's (re)raising. */
    publishedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    closedAt: timestamp({ withTimezone: true }),
    /** An automatic alert told in its broker's daily digest; null until then. */
    digestedAt: timestamp({ withTimezone: true }),
  },
  (t) => [
    uniqueIndex('organization_alerts_cause_key').on(t.organizationUuid, t.causeKey),
    uniqueIndex('organization_alerts_written_key').on(t.preventionAlertUuid, t.organizationUuid),
    index('organization_alerts_published_idx').on(t.organizationUuid, t.publishedAt.desc()),
    index('organization_alerts_digest_idx')
      .on(t.organizationUuid)
      .where(sql`${t.source} = 'automatic' and ${t.digestedAt} is null`),
    check('organization_alerts_source_check', sql`(${t.source} = 'written' and ${t.preventionAlertUuid} is not null and ${t.causeKey} is null) or (${t.source} = 'automatic' and ${t.causeKey} is not null and ${t.rule} is not null)`),
    check('organization_alerts_severity_check', sql`${t.severity} in ('information', 'attention', 'urgent')`),
  ],
);

/** Who of the organization read which of its alerts (one row per user and alert). */
export const alertReads = pgTable(
  'alert_reads',
  {
    uuid: uuid().primaryKey().defaultRandom(),
    organizationUuid: uuid()
      .notNull()
      .references(() => organizations.uuid, { onDelete: 'cascade' }),
    alertUuid: uuid()
      .notNull()
      .references(() => organizationAlerts.uuid, { onDelete: 'cascade' }),
    userUuid: uuid()
      .notNull()
      .references(() => users.uuid, { onDelete: 'cascade' }),
    readAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('alert_reads_alert_user_key').on(t.alertUuid, t.userUuid), index('alert_reads_user_idx').on(t.userUuid)],
);
