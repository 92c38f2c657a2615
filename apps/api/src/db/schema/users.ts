import { sql } from 'drizzle-orm';
import { type AnyPgColumn, bigint, type PgColumnBuilderBase, index, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
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
    /**
     * When the address was confirmed (decision 033). Every insert but the public signup's is
     * confirmed (seed, tests, broker-made accounts, invitations): the signup inserts null.
     */
    emailConfirmedAt: timestamp({ withTimezone: true }).defaultNow(),
    /** Where a signed-up user is in the onboarding ('welcome' … 'finish'); null: done, or never asked. */
    onboardingStep: text(),
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
    /** The browser's User-Agent at login, carried along each refresh: the session's device on /account (decision 036). */
    userAgent: text(),
  },
  (t) => [index('refresh_tokens_family_idx').on(t.family), index('refresh_tokens_user_idx').on(t.userUuid)],
);

/**
 * A user's one-time links (recovery, e-mail change, confirmation): only the token's SHA-256 is
 * kept, single use (used_at), with an expiry; a user's data, reached in system scope only.
 */
function userLinkTokens<Extra extends Record<string, PgColumnBuilderBase>>(name: string, extra: Extra) {
  return pgTable(
    name,
    {
      uuid: uuid().primaryKey().defaultRandom(),
      userUuid: uuid()
        .notNull()
        .references(() => users.uuid, { onDelete: 'cascade' }),
      ...extra,
      tokenHash: text().notNull().unique(),
      expiresAt: timestamp({ withTimezone: true }).notNull(),
      usedAt: timestamp({ withTimezone: true }),
      createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    },
    (t) => [index(`${name}_user_idx`).on(t.userUuid)],
  );
}

/**
 * One-time links of account recovery (/recover/password?token=…): only the token's SHA-256 is
 * kept; single use (used_at), valid one hour. A user's data, not an organization's: reached in
 * system scope only, like the refresh tokens.
 */
export const passwordResetTokens = userLinkTokens('password_reset_tokens', {});

/**
 * E-mail changes waiting for their confirmation (/account?emailToken=…, decision 036): the new
 * address, the token's SHA-256 only, single use, valid 24 hours. A user's data: system scope only.
 */
export const emailChangeTokens = userLinkTokens('email_change_tokens', { newEmail: text().notNull() });

/**
 * One-time links confirming a new account's address (/signup/confirmation?token=…): the token's
 * SHA-256 only; single use, valid 24 h. A user's data, reached in system scope only (decision 033).
 */
export const emailConfirmationTokens = userLinkTokens('email_confirmation_tokens', {});

/**
 * Two-factor sign-in (decision 035): the user's TOTP key, encrypted with AES-256-GCM under a key
 * derived from APP_SECRET; `enabledAt` null while the setup waits for its first code.
 * `lastStep`: the 30-second step of the last code accepted, so that no code serves twice.
 * A user's data, reached in system scope only, like the refresh tokens.
 */
export const userTotp = pgTable('user_totp', {
  userUuid: uuid()
    .primaryKey()
    .references(() => users.uuid, { onDelete: 'cascade' }),
  secret: text().notNull(),
  enabledAt: timestamp({ withTimezone: true }),
  lastStep: bigint({ mode: 'number' }),
  createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
});

/** The ten single-use recovery codes of a user's TOTP: their SHA-256 only. */
export const totpRecoveryCodes = pgTable(
  'totp_recovery_codes',
  {
    uuid: uuid().primaryKey().defaultRandom(),
    userUuid: uuid()
      .notNull()
      .references(() => users.uuid, { onDelete: 'cascade' }),
    codeHash: text().notNull(),
    usedAt: timestamp({ withTimezone: true }),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('totp_recovery_codes_user_code_key').on(t.userUuid, t.codeHash)],
);

/**
 * The second step of a login: given after the right password, it names the user and whether
 * they must type a code or set TOTP up first; its SHA-256 only, single use, a few minutes.
 */
export const loginChallenges = pgTable(
  'login_challenges',
  {
    uuid: uuid().primaryKey().defaultRandom(),
    userUuid: uuid()
      .notNull()
      .references(() => users.uuid, { onDelete: 'cascade' }),
    tokenHash: text().notNull().unique(),
    mode: text({ enum: ['code', 'setup'] }).notNull(),
    expiresAt: timestamp({ withTimezone: true }).notNull(),
    usedAt: timestamp({ withTimezone: true }),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('login_challenges_user_idx').on(t.userUuid)],
);

/** Browsers where a user chose « Se souvenir de cet appareil » (30 days): the cookie's SHA-256. */
export const trustedDevices = pgTable(
  'trusted_devices',
  {
    uuid: uuid().primaryKey().defaultRandom(),
    userUuid: uuid()
      .notNull()
      .references(() => users.uuid, { onDelete: 'cascade' }),
    tokenHash: text().notNull().unique(),
    expiresAt: timestamp({ withTimezone: true }).notNull(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('trusted_devices_user_idx').on(t.userUuid)],
);
