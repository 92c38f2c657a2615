import { sql } from 'drizzle-orm';
import { check, index, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { environments } from './environments.js';
import { users } from './users.js';

export const MEMBER_ROLES = ['ADMIN', 'USER'] as const;

export const organizations = pgTable(
  'organizations',
  {
    uuid: uuid().primaryKey().defaultRandom(),
    title: text().notNull(),
    avatarUrl: text(),
    environmentUuid: uuid().references(() => environments.uuid, { onDelete: 'set null' }),
    /** Given at the onboarding (decision 033): the SIREN (9 digits) or the SIRET (14), Luhn-checked. */
    siren: text(),
    siret: text(),
    address: text(),
    /** A bracket of FLEET_SIZES ('1-9' …) chosen at the onboarding. */
    fleetSize: text(),
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
    /** The member's role in this organization (decision 034): ROOT and SUPERADMIN stay global, in users.roles. */
    role: text({ enum: MEMBER_ROLES }).notNull().default('USER'),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('organization_users_organization_user_key').on(t.organizationUuid, t.userUuid),
    index('organization_users_user_idx').on(t.userUuid),
    check('organization_users_role_check', sql`${t.role} in ('ADMIN', 'USER')`),
  ],
);

/**
 * Invitations by e-mail into an organization (decision 034): the organization's data (forced
 * row-level security); the link's token is kept as its SHA-256 only, valid 7 days, single use
 * (accepted_at). One pending invitation per address and organization: a new one replaces it.
 */
export const organizationInvitations = pgTable(
  'organization_invitations',
  {
    uuid: uuid().primaryKey().defaultRandom(),
    organizationUuid: uuid()
      .notNull()
      .references(() => organizations.uuid, { onDelete: 'cascade' }),
    /** Lower-cased. */
    email: text().notNull(),
    role: text({ enum: MEMBER_ROLES }).notNull(),
    tokenHash: text().notNull().unique(),
    invitedByUuid: uuid().references(() => users.uuid, { onDelete: 'set null' }),
    expiresAt: timestamp({ withTimezone: true }).notNull(),
    acceptedAt: timestamp({ withTimezone: true }),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('organization_invitations_pending_key').on(t.organizationUuid, t.email).where(sql`${t.acceptedAt} is null`),
    check('organization_invitations_role_check', sql`${t.role} in ('ADMIN', 'USER')`),
  ],
);
