import { randomBytes, timingSafeEqual } from 'node:crypto';
import { SIGNUP_LINK_HOURS, SIGNUP_LINK_INVALID_MESSAGE, SIGNUP_REQUESTED_MESSAGE, type SignupBody } from '@flotte/contract';
import { and, eq, gt, isNull, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.js';
import { emailConfirmationTokens, users } from '../../db/schema/users.js';
import { withSystem, type WriteTx } from '../../db/scope.js';
import { BadRequestError, TooManyRequestsError } from '../../errors.js';
import { MemoryFailureStore, retryAfterSeconds, type FailureStore } from '../../lib/failure-limiter.js';
import { addressKey } from '../../lib/login-limits.js';
import { hashPassword } from '../../lib/passwords.js';
import { hashRefreshToken } from '../../lib/tokens.js';
import type { MailService } from '../../platform/platform-jobs.js';

/** Signups and resends of one address: at most 3 in the window (decision 033). */
export const SIGNUP_EMAIL_LIMIT = 3;
/** …and of one network address: more, an office signs several people up. */
export const SIGNUP_ADDRESS_LIMIT = 10;
export const SIGNUP_WINDOW_MS = 30 * 60 * 1000;

export type SignupServiceOptions = {
  /** Where requests are counted: the login limits' store (shared by every process on a PostgreSQL server). */
  failureStore?: FailureStore;
  /** The platform mailer (app.mail), known once the app is built. */
  mail: () => MailService;
  now?: () => number;
};

/** « 12 minutes », « 40 secondes ». */
function waitWords(seconds: number): string {
  return seconds < 120 ? `${seconds} seconde${seconds > 1 ? 's' : ''}` : `${Math.ceil(seconds / 60)} minutes`;
}

function sameHash(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

const invalidLink = () => new BadRequestError(SIGNUP_LINK_INVALID_MESSAGE, [{ path: 'token', message: SIGNUP_LINK_INVALID_MESSAGE }]);

/**
 * Signup and e-mail confirmation (issue 15, decision 033): an account is made unconfirmed and a
 * one-time link, valid 24 h, confirms its address. The answers never tell whether an address
 * already has an account: its owner is told by e-mail instead.
 */
export function createSignupService(db: Database, options: SignupServiceOptions) {
  const store = options.failureStore ?? new MemoryFailureStore();
  const now = options.now ?? (() => Date.now());

  /** Counts this request (signup or resend) against its e-mail and its network address; 429 beyond. */
  async function admit(email: string, ip: string) {
    const at = now();
    const since = at - SIGNUP_WINDOW_MS;
    const byEmail = `signup:email:${email}`;
    const byAddress = `signup:address:${addressKey(ip)}`;
    const [emailTimes, addressTimes] = await store.recent([byEmail, byAddress], since);
    const wait = Math.max(
      retryAfterSeconds(emailTimes ?? [], SIGNUP_EMAIL_LIMIT, SIGNUP_WINDOW_MS, at),
      retryAfterSeconds(addressTimes ?? [], SIGNUP_ADDRESS_LIMIT, SIGNUP_WINDOW_MS, at),
    );
    if (wait > 0) throw new TooManyRequestsError(`Trop de demandes pour cette adresse. Réessayez dans ${waitWords(wait)}.`, wait);
    await store.record([byEmail], at, SIGNUP_WINDOW_MS, SIGNUP_EMAIL_LIMIT);
    await store.record([byAddress], at, SIGNUP_WINDOW_MS, SIGNUP_ADDRESS_LIMIT);
  }

  /** A new link for the account (the earlier ones are spent: one live link), and its e-mail. */
  async function sendLink(tx: WriteTx, user: { uuid: string; firstName: string; email: string }, baseUrl: string) {
    const token = randomBytes(32).toString('base64url');
    await tx
      .update(emailConfirmationTokens)
      .set({ usedAt: new Date(now()) })
      .where(and(eq(emailConfirmationTokens.userUuid, user.uuid), isNull(emailConfirmationTokens.usedAt)));
    await tx
      .insert(emailConfirmationTokens)
      .values({ userUuid: user.uuid, tokenHash: hashRefreshToken(token), expiresAt: new Date(now() + SIGNUP_LINK_HOURS * 3_600_000) });
    await options.mail().queue(tx, { template: 'signup-confirmation', to: user.email, data: { firstName: user.firstName, token, expiresInHours: SIGNUP_LINK_HOURS }, baseUrl });
  }

  async function findByEmail(tx: WriteTx, email: string) {
    const [user] = await tx
      .select({ uuid: users.uuid, firstName: users.firstName, email: users.email, confirmedAt: users.emailConfirmedAt })
      .from(users)
      .where(sql`lower(${users.email}) = ${email}`)
      .limit(1);
    return user ?? null;
  }

  /** Whether the account has a confirmation link still usable. */
  async function hasLiveLink(tx: WriteTx, userUuid: string) {
    const [row] = await tx
      .select({ uuid: emailConfirmationTokens.uuid })
      .from(emailConfirmationTokens)
      .where(and(eq(emailConfirmationTokens.userUuid, userUuid), isNull(emailConfirmationTokens.usedAt), gt(emailConfirmationTokens.expiresAt, new Date(now()))))
      .limit(1);
    return Boolean(row);
  }

  return {
    /**
     * A new account, unconfirmed, and its link by e-mail. An address that has an account gets the
     * same answer after the same work (a password is hashed either way); its owner is told by
     * e-mail. An unconfirmed account whose links all expired is nobody's yet: the new signup
     * takes it over (a squatter cannot hold an address they cannot read).
     */
    async signup(body: SignupBody, ip: string, baseUrl: string): Promise<{ message: string }> {
      await admit(body.email, ip);
      const passwordHash = await hashPassword(body.password);
      const fields = {
        firstName: body.firstName,
        lastName: body.lastName,
        passwordHash,
        cguAcceptedVersion: body.cguVersion,
        cguAcceptedAt: new Date(now()),
        emailConfirmedAt: null,
        onboardingStep: 'welcome',
      };
      await withSystem(db, async (tx) => {
        const existing = await findByEmail(tx, body.email);
        if (existing && (existing.confirmedAt || (await hasLiveLink(tx, existing.uuid)))) {
          await options.mail().queue(tx, { template: 'signup-existing-account', to: existing.email, data: { firstName: existing.firstName }, baseUrl });
          return;
        }
        if (existing) {
          await tx.update(users).set({ ...fields, updatedAt: new Date(now()) }).where(eq(users.uuid, existing.uuid));
          await sendLink(tx, { uuid: existing.uuid, firstName: body.firstName, email: existing.email }, baseUrl);
          return;
        }
        // Two signups racing on one address: the unique index keeps one, the other is answered alike.
        const [created] = await tx
          .insert(users)
          .values({ email: body.email, roles: ['USER'], ...fields })
          .onConflictDoNothing()
          .returning({ uuid: users.uuid, firstName: users.firstName, email: users.email });
        if (created) await sendLink(tx, created, baseUrl);
      });
      return { message: SIGNUP_REQUESTED_MESSAGE };
    },

    /** Another link for an account not yet confirmed; the same answer for any other address. */
    async resend(email: string, ip: string, baseUrl: string): Promise<{ message: string }> {
      await admit(email, ip);
      await withSystem(db, async (tx) => {
        const user = await findByEmail(tx, email);
        if (user && !user.confirmedAt) await sendLink(tx, user, baseUrl);
      });
      return { message: SIGNUP_REQUESTED_MESSAGE };
    },

    /** Opens the link once: the address is confirmed; the caller then signs the user in. */
    async confirm(token: string): Promise<string> {
      const hash = hashRefreshToken(token);
      const userUuid = await withSystem(db, async (tx) => {
        const [row] = await tx
          .select({ uuid: emailConfirmationTokens.uuid, userUuid: emailConfirmationTokens.userUuid, tokenHash: emailConfirmationTokens.tokenHash })
          .from(emailConfirmationTokens)
          .where(and(eq(emailConfirmationTokens.tokenHash, hash), isNull(emailConfirmationTokens.usedAt), gt(emailConfirmationTokens.expiresAt, new Date(now()))))
          .limit(1);
        if (!row || !sameHash(row.tokenHash, hash)) return null;
        // Claimed only if nobody used it first: of two racing uses, one wins.
        const claimed = await tx
          .update(emailConfirmationTokens)
          .set({ usedAt: new Date(now()) })
          .where(and(eq(emailConfirmationTokens.uuid, row.uuid), isNull(emailConfirmationTokens.usedAt)))
          .returning({ uuid: emailConfirmationTokens.uuid });
        if (claimed.length !== 1) return null;
        await tx
          .update(emailConfirmationTokens)
          .set({ usedAt: new Date(now()) })
          .where(and(eq(emailConfirmationTokens.userUuid, row.userUuid), isNull(emailConfirmationTokens.usedAt)));
        await tx
          .update(users)
          .set({ emailConfirmedAt: sql`coalesce(${users.emailConfirmedAt}, now())`, updatedAt: new Date(now()) })
          .where(eq(users.uuid, row.userUuid));
        return row.userUuid;
      });
      if (!userUuid) throw invalidLink();
      return userUuid;
    },
  };
}

export type SignupService = ReturnType<typeof createSignupService>;
