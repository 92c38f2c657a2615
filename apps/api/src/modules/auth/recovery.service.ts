import { randomBytes } from 'node:crypto';
import {
  RECOVERY_LINK_INVALID_MESSAGE,
  RECOVERY_LINK_MINUTES,
  RECOVERY_REQUESTED_MESSAGE,
  type RecoveryPasswordBody,
  type RecoveryTokenResponse,
} from '@flotte/contract';
import { and, eq, gt, isNull, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.js';
import { environmentUsers } from '../../db/schema/environments.js';
import { organizations, organizationUsers } from '../../db/schema/organizations.js';
import { passwordResetTokens, users } from '../../db/schema/users.js';
import { readSystem, withSystem, type WriteTx } from '../../db/scope.js';
import { BadRequestError, TooManyRequestsError } from '../../errors.js';
import { MemoryFailureStore, retryAfterSeconds, type FailureStore } from '../../lib/failure-limiter.js';
import { addressKey } from '../../lib/login-limits.js';
import { hashPassword } from '../../lib/passwords.js';
import { hashRefreshToken, sameHash } from '../../lib/tokens.js';
import type { AfterAnswer } from '../../lib/after-answer.js';
import type { MailService } from '../../platform/platform-jobs.js';
import * as repo from './auth.repository.js';

/** At most this many recovery requests per address and per e-mail in the window (issue 15). */
export const RECOVERY_REQUEST_LIMIT = 5;
export const RECOVERY_REQUEST_WINDOW_MS = 30 * 60 * 1000;

export type RecoveryServiceOptions = {
  /** Where requests are counted: the login limits' store (shared by every process on a PostgreSQL server). */
  failureStore?: FailureStore;
  /** The platform mailer (app.mail), known once the app is built. */
  mail: () => MailService;
  /** Where the link is made and sent, after the answer (app.afterAnswer). */
  afterAnswer: AfterAnswer;
  /** Called when sessions end: the cached contexts of this process must go at once. */
  onSessionsEnded?: () => void;
  now?: () => number;
};

/** « 12 minutes », « 40 secondes ». */
function waitWords(seconds: number): string {
  return seconds < 120 ? `${seconds} seconde${seconds > 1 ? 's' : ''}` : `${Math.ceil(seconds / 60)} minutes`;
}

/** `jean.dupont@exemple.fr` → `j••••••••••@exemple.fr`: enough to recognise one's own address, not to learn another's. */
export function maskEmail(email: string): string {
  const at = email.lastIndexOf('@');
  if (at <= 0) return '•••';
  return `${email[0]}${'•'.repeat(Math.max(3, at - 1))}${email.slice(at)}`;
}

/**
 * Account recovery (issue 15): a one-time link by e-mail, valid one hour, that sets a new
 * password and ends every session of the account. Answers never tell whether an address has an
 * account; tokens are kept as their SHA-256 only.
 */
export function createRecoveryService(db: Database, options: RecoveryServiceOptions) {
  const store = options.failureStore ?? new MemoryFailureStore();
  const now = options.now ?? (() => Date.now());

  /** Counts this request against its address and its e-mail; 429 beyond 5 in 30 minutes for either. */
  async function admit(email: string, ip: string) {
    const keys = [`recover:email:${email}`, `recover:address:${addressKey(ip)}`];
    const at = now();
    const recent = await store.recent(keys, at - RECOVERY_REQUEST_WINDOW_MS);
    const wait = Math.max(...recent.map((times) => retryAfterSeconds(times, RECOVERY_REQUEST_LIMIT, RECOVERY_REQUEST_WINDOW_MS, at)));
    if (wait > 0) throw new TooManyRequestsError(`Trop de demandes de réinitialisation. Réessayez dans ${waitWords(wait)}.`, wait);
    await store.record(keys, at, RECOVERY_REQUEST_WINDOW_MS, RECOVERY_REQUEST_LIMIT);
  }

  /** The live link of this token: its row, or null when unknown, used or expired. */
  async function liveToken(tx: Pick<WriteTx, 'select'>, token: string) {
    const hash = hashRefreshToken(token);
    const [row] = await tx
      .select({ uuid: passwordResetTokens.uuid, userUuid: passwordResetTokens.userUuid, tokenHash: passwordResetTokens.tokenHash, expiresAt: passwordResetTokens.expiresAt, email: users.email })
      .from(passwordResetTokens)
      .innerJoin(users, eq(users.uuid, passwordResetTokens.userUuid))
      .where(and(eq(passwordResetTokens.tokenHash, hash), isNull(passwordResetTokens.usedAt), gt(passwordResetTokens.expiresAt, new Date(now()))))
      .limit(1);
    return row && sameHash(row.tokenHash, hash) ? row : null;
  }

  /** The link of an address that has an account, made and queued by e-mail (nothing for another address). */
  async function sendLink(email: string, baseUrl: string): Promise<void> {
    const token = randomBytes(32).toString('base64url');
    await withSystem(db, async (tx) => {
      const [user] = await tx
        .select({ uuid: users.uuid, firstName: users.firstName, email: users.email, currentMembership: users.currentOrganizationUserUuid, ownEnvironment: environmentUsers.environmentUuid })
        .from(users)
        .leftJoin(environmentUsers, eq(environmentUsers.uuid, users.currentEnvironmentUserUuid))
        .where(sql`lower(${users.email}) = ${email}`)
        .limit(1);
      if (!user) return;
      // The e-mail wears the name of the user's broker (the environment of their current, else first, organization).
      const [membership] = await tx
        .select({ environmentUuid: organizations.environmentUuid })
        .from(organizationUsers)
        .innerJoin(organizations, eq(organizations.uuid, organizationUsers.organizationUuid))
        .where(eq(organizationUsers.userUuid, user.uuid))
        .orderBy(sql`${organizationUsers.uuid} = ${user.currentMembership} desc nulls last`, organizationUsers.createdAt)
        .limit(1);
      // One live link at a time: a new request makes the earlier ones useless.
      await tx
        .update(passwordResetTokens)
        .set({ usedAt: new Date(now()) })
        .where(and(eq(passwordResetTokens.userUuid, user.uuid), isNull(passwordResetTokens.usedAt)));
      await tx.insert(passwordResetTokens).values({ userUuid: user.uuid, tokenHash: hashRefreshToken(token), expiresAt: new Date(now() + RECOVERY_LINK_MINUTES * 60_000) });
      await options.mail().queue(tx, {
        template: 'password-reset',
        to: user.email,
        data: { firstName: user.firstName, token, expiresInMinutes: RECOVERY_LINK_MINUTES },
        baseUrl,
        environmentUuid: membership?.environmentUuid ?? user.ownEnvironment ?? undefined,
      });
    });
  }

  return {
    /**
     * Sends a recovery link to the address when it has an account. The same answer either way,
     * at the same time: the request only counts itself against the limits; looking the address
     * up, making the link and queuing the e-mail happen after the answer has left.
     */
    async request(email: string, ip: string, baseUrl: string): Promise<{ message: string }> {
      await admit(email, ip);
      options.afterAnswer.run('recovery-link', () => sendLink(email, baseUrl));
      return { message: RECOVERY_REQUESTED_MESSAGE };
    },

    /** Whether a link still works (/recover/password asks before showing its form). */
    async check(token: string): Promise<RecoveryTokenResponse> {
      const row = await readSystem(db, (tx) => liveToken(tx, token));
      if (!row) throw new BadRequestError(RECOVERY_LINK_INVALID_MESSAGE, [{ path: 'token', message: RECOVERY_LINK_INVALID_MESSAGE }]);
      return { email: maskEmail(row.email), expiresAt: row.expiresAt.toISOString() };
    },

    /**
     * Uses the link once: the new password is set, every link of the account is spent, and every
     * session of the account ends (a thief holding one loses it). The user then signs in.
     */
    async reset(body: RecoveryPasswordBody): Promise<void> {
      const passwordHash = await hashPassword(body.password);
      const done = await withSystem(db, async (tx) => {
        const row = await liveToken(tx, body.token);
        if (!row) return false;
        // Claimed only if nobody used it first: of two racing uses, one wins.
        const claimed = await tx
          .update(passwordResetTokens)
          .set({ usedAt: new Date(now()) })
          .where(and(eq(passwordResetTokens.uuid, row.uuid), isNull(passwordResetTokens.usedAt)))
          .returning({ uuid: passwordResetTokens.uuid });
        if (claimed.length !== 1) return false;
        await tx
          .update(passwordResetTokens)
          .set({ usedAt: new Date(now()) })
          .where(and(eq(passwordResetTokens.userUuid, row.userUuid), isNull(passwordResetTokens.usedAt)));
        // The link proves the address: an account not yet confirmed is from now on (decision 033).
        await tx
          .update(users)
          .set({ passwordHash, emailConfirmedAt: sql`coalesce(${users.emailConfirmedAt}, now())`, updatedAt: new Date() })
          .where(eq(users.uuid, row.userUuid));
        await repo.revokeUserFamilies(tx, row.userUuid);
        return true;
      });
      if (!done) throw new BadRequestError(RECOVERY_LINK_INVALID_MESSAGE, [{ path: 'token', message: RECOVERY_LINK_INVALID_MESSAGE }]);
      options.onSessionsEnded?.();
    },
  };
}

export type RecoveryService = ReturnType<typeof createRecoveryService>;
