import { sql } from 'drizzle-orm';
import { type AnyPgColumn, index, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { environmentUsers } from './environments.js';
import { organizationUsers } from './organizations.js';

export const users = pgTable(
  'users',
  {
    uuid: uuid().primaryKey().defaultRandom(),
    email: text().notNull(),
    passwordHash: text().notNull(),
    firstName: text().notNull(),
    lastName: text().notNull(),
    roles: text().array().notNull().default(sql`'{USER}'::text[]`),
    avatarUrl: text(),
    description: text(),
    phone: text(),
    currentOrganizationUserUuid: uuid().references((): AnyPgColumn => organizationUsers.uuid, { onDelete: 'set null' }),
    currentEnvironmentUserUuid: uuid().references((): AnyPgColumn => environmentUsers.uuid, { onDelete: 'set null' }),
    /** The terms of use (CGU) the user accepted last: their version and when (issue 15). */
    cguAcceptedVersion: text(),
    cguAcceptedAt: timestamp({ withTimezone: true }),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('users_email_key').on(sql`lower(${t.email})`)],
);

export const refreshTokens = pgTable(
  'refresh_tokens',
  {
    uuid: uuid().primaryKey().defaultRandom(),
    userUuid: uuid()
      .notNull()
      .references(() => users.uuid, { onDelete: 'cascade' }),
    family: uuid().notNull(),
    tokenHash: text().notNull().unique(),
    expiresAt: timestamp({ withTimezone: true }).notNull(),
    usedAt: timestamp({ withTimezone: true }),
    revokedAt: timestamp({ withTimezone: true }),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('refresh_tokens_family_idx').on(t.family), index('refresh_tokens_user_idx').on(t.userUuid)],
);

/**
 * One-time links of account recovery (/recover/password?token=…): only the token's SHA-256 is
 * kept; single use (used_at), valid one hour. A user's data, not an organization's: reached in
 * system scope only, like the refresh tokens.
 */
export const passwordResetTokens = pgTable(
  'password_reset_tokens',
  {
    uuid: uuid().primaryKey().defaultRandom(),
    userUuid: uuid()
      .notNull()
      .references(() => users.uuid, { onDelete: 'cascade' }),
    tokenHash: text().notNull().unique(),
    expiresAt: timestamp({ withTimezone: true }).notNull(),
    usedAt: timestamp({ withTimezone: true }),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('password_reset_tokens_user_idx').on(t.userUuid)],
);
