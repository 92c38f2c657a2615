import { randomUUID } from 'node:crypto';
import { EMAIL_NOT_CONFIRMED_MESSAGE, type ChangePasswordBody, type LoginBody, type LoginChallenge, type LoginSession, type LoginTotpBody } from '@flotte/contract';
import type { Database } from '../../db/client.js';
import { withSystem } from '../../db/scope.js';
import { AppError, BadRequestError, TooManyRequestsError, UnauthorizedError } from '../../errors.js';
import type { AuthContext } from '../../lib/auth-context.js';
import { securityEvent } from '../../plugins/request-log.js';
import type { FailureStore } from '../../lib/failure-limiter.js';
import { DEFAULT_LOGIN_LIMITS, type LoginAdmission, LoginLimits, type LoginLimitsOptions, tooManyAttemptsMessage } from '../../lib/login-limits.js';
import { dummyPasswordHash, hashPassword, verifyPassword } from '../../lib/passwords.js';
import { type AccessTokens, type Clock, hashRefreshToken, newRefreshToken, REFRESH_TOKEN_TTL_MS, SESSION_MAX_AGE_MS } from '../../lib/tokens.js';
import * as usersService from '../users/users.service.js';
import * as repo from './auth.repository.js';
import { deviceOf } from './device-label.js';
import type { TotpService } from './totp.service.js';

export const LOGIN_FAILED_MESSAGE = 'Adresse e-mail ou mot de passe incorrect';
export const SESSION_EXPIRED_MESSAGE = 'Session expirée, veuillez vous reconnecter';
export const WRONG_CURRENT_PASSWORD_MESSAGE = 'Mot de passe actuel incorrect';

export type IssuedSession = LoginSession & { refreshToken: string; refreshExpiresAt: Date };
/** A sign-in proven by a link sent to the address (its confirmation, an invitation): the method of its login.succeeded. */
type LinkSignIn = 'confirmation-link' | 'invitation-link';

export type AuthServiceOptions = {
  /** Called when sessions end: the cached contexts of this process must go at once. */
  onSessionsEnded?: () => void;
  loginLimits?: LoginLimitsOptions;
  /** Where login failures are counted: shared by every process on a PostgreSQL server (platform/failure-stores.ts); in memory by default. */
  failureStore?: FailureStore;
  /** Tests: how the account-wide slow-down waits. */
  sleep?: (ms: number) => Promise<void>;
  /** Two-factor sign-in (decision 035): the login's second step. */
  totp?: TotpService;
  /** Tests: the clock the sessions' lifetimes are counted by. */
  now?: Clock;
};

const wait = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Calls of `run` with a key whose call is still running get that call's promise. */
function sharedWhileRunning<T>(run: (key: string | undefined) => Promise<T>): (key: string | undefined) => Promise<T> {
  const running = new Map<string, Promise<T>>();
  return (key) => {
    if (key === undefined) return run(key);
    const shared = running.get(key);
    if (shared) return shared;
    const call = run(key).finally(() => running.delete(key));
    running.set(key, call);
    return call;
  };
}

export function createAuthService(db: Database, tokens: AccessTokens, options: AuthServiceOptions = {}) {
  const limits = new LoginLimits(options.failureStore, options.loginLimits ?? DEFAULT_LOGIN_LIMITS);
  const sleep = options.sleep ?? wait;
  const sessionsEnded = () => options.onSessionsEnded?.();
  const now = options.now ?? Date.now;

  /**
   * A session is a refresh-token family; its access tokens name it (decision 014). Each refresh
   * token lives REFRESH_TOKEN_TTL_MS (the idle lifetime), never past SESSION_MAX_AGE_MS after the
   * login (`startedAt`, the absolute lifetime); nor does an access token.
   */
  async function issueSession(userUuid: string, sessionUuid: string, userAgent: string | null, startedAt = new Date(now())) {
    const { token, hash } = newRefreshToken();
    const createdAt = new Date(now());
    const sessionEnd = new Date(startedAt.getTime() + SESSION_MAX_AGE_MS);
    const expiresAt = new Date(Math.min(createdAt.getTime() + REFRESH_TOKEN_TTL_MS, sessionEnd.getTime()));
    const [accessToken] = await Promise.all([
      tokens.sign({ userUuid, sessionUuid }, sessionEnd),
      withSystem(db, (tx) => repo.insertRefreshToken(tx, { userUuid, family: sessionUuid, tokenHash: hash, expiresAt, createdAt, userAgent: deviceOf(userAgent) })),
    ]);
    return { tokens: { access_token: accessToken }, refreshToken: token, refreshExpiresAt: expiresAt };
  }

  /**
   * Refuses an address that failed too often (429), then slows down a much-failed account before
   * its password is checked (decision 014).
   */
  async function admit(account: string, ip: string) {
    const admission = await limits.admission(account, ip);
    if (admission.retryAfter > 0) throw new TooManyRequestsError(tooManyAttemptsMessage(admission.retryAfter), admission.retryAfter);
    if (admission.delayMs > 0) await sleep(admission.delayMs);
    return admission;
  }

  /**
   * Whether `password` is the account's (an unknown account is checked against a dummy hash). A
   * success forgives the address its failures on the account — a write only when there are some.
   */
  async function checkPassword(account: string, ip: string, admission: LoginAdmission, passwordHash: string | undefined, password: string) {
    const valid = (await verifyPassword(passwordHash ?? (await dummyPasswordHash()), password)) && passwordHash !== undefined;
    if (!valid) await limits.recordFailure(account, ip);
    else if (admission.pairFailures > 0) await limits.recordSuccess(account, ip);
    return valid;
  }

  /**
   * The caller's current password, asked again before a sensitive change (password, e-mail,
   * deletion, turning two-factor sign-in off): limited as a login is; a wrong one is a 400 on `field`.
   */
  async function checkOwnPassword(ctx: AuthContext, password: string, ip: string, field = 'currentPassword'): Promise<void> {
    const own = await usersService.findOwnCredentials(db, ctx.userUuid);
    if (!own) throw new UnauthorizedError(SESSION_EXPIRED_MESSAGE);
    const account = own.email.toLowerCase();
    const admission = await admit(account, ip);
    if (!(await checkPassword(account, ip, admission, own.passwordHash, password))) {
      throw new BadRequestError(WRONG_CURRENT_PASSWORD_MESSAGE, [{ path: field, message: WRONG_CURRENT_PASSWORD_MESSAGE }]);
    }
  }

  /** A new session for a user whose identity is proven (a password and its second factor, a confirmation or invitation link). */
  async function signIn(userUuid: string, userAgent: string | null): Promise<IssuedSession> {
    await usersService.ensureCurrentScope(db, userUuid);
    const [session, user] = await Promise.all([issueSession(userUuid, randomUUID(), userAgent), usersService.getProfile(db, userUuid)]);
    return { ...session, user };
  }

  /** A login's session, said as a security event with the organization the user lands in. */
  function signedIn(session: IssuedSession, method: 'password' | 'second-factor' | LinkSignIn): IssuedSession {
    const organizationUuid = session.user.currentOrganizationUser?.organization.uuid ?? null;
    securityEvent('login.succeeded', { userUuid: session.user.uuid, organizationUuid, method });
    return session;
  }

  return {
    /**
     * Same 401 for a wrong password and an unknown email; 429 for an address that failed too
     * often. A user with two-factor sign-in gets a challenge instead of a session, unless
     * `deviceToken` is a browser they asked to remember (decision 035).
     */
    async login(body: LoginBody, ip: string, userAgent: string | null = null, deviceToken?: string): Promise<IssuedSession | LoginChallenge> {
      // Security events (plugins/request-log.ts): uuids and a reason, never the address typed.
      const failed = (reason: string, userUuid: string | null = null) => securityEvent('login.failed', { userUuid, organizationUuid: null, reason });
      const admission = await admit(body.email, ip).catch((error: unknown) => {
        failed('too-many-attempts');
        throw error;
      });
      const credentials = await usersService.findCredentials(db, body.email);
      // An unknown email is checked too (against a dummy hash): both failures take the same time.
      const valid = await checkPassword(body.email, ip, admission, credentials?.passwordHash, body.password);
      if (!credentials || !valid) {
        failed(credentials ? 'wrong-password' : 'unknown-account', credentials?.uuid ?? null);
        throw new UnauthorizedError(LOGIN_FAILED_MESSAGE);
      }
      // The right password of an address not yet confirmed (decision 033): no session, the way to a new link.
      if (!credentials.emailConfirmedAt) {
        failed('email-not-confirmed', credentials.uuid);
        throw new AppError(403, EMAIL_NOT_CONFIRMED_MESSAGE, [{ path: 'email', message: EMAIL_NOT_CONFIRMED_MESSAGE }]);
      }
      const challenge = await options.totp?.challengeAfterPassword(credentials.uuid, deviceToken);
      if (challenge) {
        securityEvent('login.challenged', { userUuid: credentials.uuid, organizationUuid: null, mode: challenge.mode });
        return challenge;
      }
      return signedIn(await signIn(credentials.uuid, userAgent), 'password');
    },

    /** Opens a session for a user whose identity another proof settled (a confirmation or invitation link), said as a login is. */
    signInByLink: async (userUuid: string, userAgent: string | null, link: LinkSignIn) => signedIn(await signIn(userUuid, userAgent), link),

    /** The login's second step (a code, a recovery code, or the end of a required setup). */
    async loginWithTotp(body: LoginTotpBody, ip: string, userAgent: string | null = null) {
      if (!options.totp) throw new UnauthorizedError(SESSION_EXPIRED_MESSAGE);
      const passed = await options.totp.passChallenge(body, ip);
      return { ...signedIn(await signIn(passed.userUuid, userAgent), 'second-factor'), recoveryCodes: passed.recoveryCodes, device: passed.device };
    },

    /** The caller's current password, checked as a login is (password change, e-mail change, deletion, two-factor off). */
    checkOwnPassword,

    /**
     * Rotates the refresh token; a reused, expired or revoked one revokes its whole family. The
     * same token shown again while its rotation runs in this process (two tabs refreshing at once)
     * shares that rotation's answer: one live chain, not a revoked family (decision 014).
     */
    refresh: sharedWhileRunning(async (refreshToken: string | undefined) => {
      if (!refreshToken) throw new UnauthorizedError(SESSION_EXPIRED_MESSAGE);
      const outcome = await withSystem(db, async (tx) => {
        const row = await repo.findRefreshToken(tx, hashRefreshToken(refreshToken));
        if (!row) return null;
        // Past its idle or its absolute lifetime (the latter only for a session opened before it was counted).
        const startedAt = await repo.sessionStartedAt(tx, row.family);
        const expired = row.expiresAt <= new Date(now()) || startedAt.getTime() + SESSION_MAX_AGE_MS <= now();
        const usable = !expired && (await repo.claimRefreshToken(tx, row.uuid, row.family));
        if (!usable) {
          await repo.revokeFamily(tx, row.family);
          // Shown again after its use (a stolen copy, a replay, or the loser of a race): the reuse the rotation detects.
          const reason = expired ? 'expired' : row.revokedAt ? 'revoked' : 'reused';
          return { revoked: true as const, userUuid: row.userUuid, reason };
        }
        return { revoked: false as const, userUuid: row.userUuid, family: row.family, userAgent: row.userAgent, startedAt };
      });
      if (!outcome) securityEvent('refresh.refused', { userUuid: null, organizationUuid: null, reason: 'unknown-token' });
      if (outcome?.revoked) {
        const profile = await usersService.getProfile(db, outcome.userUuid).catch(() => null);
        const organizationUuid = profile?.currentOrganizationUser?.organization.uuid ?? null;
        const fields = { userUuid: outcome.userUuid, organizationUuid, reason: outcome.reason };
        securityEvent(outcome.reason === 'reused' ? 'refresh.reused' : 'refresh.refused', fields);
        sessionsEnded();
      }
      if (!outcome || outcome.revoked) throw new UnauthorizedError(SESSION_EXPIRED_MESSAGE);
      // The session keeps the device it was opened on (decision 036).
      return issueSession(outcome.userUuid, outcome.family, outcome.userAgent, outcome.startedAt);
    }),

    async logout(refreshToken: string | undefined) {
      if (!refreshToken) return;
      await withSystem(db, async (tx) => {
        const row = await repo.findRefreshToken(tx, hashRefreshToken(refreshToken));
        if (row) await repo.revokeFamily(tx, row.family);
        await repo.deleteExpired(tx);
      });
      sessionsEnded();
    },

    /**
     * Checks the current password (limited as a login is), sets the new one and ends every
     * session of the user, this one included; the caller gets a new session in their place.
     */
    async changePassword(ctx: AuthContext, body: ChangePasswordBody, ip: string, userAgent: string | null = null) {
      await checkOwnPassword(ctx, body.currentPassword, ip);
      const passwordHash = await hashPassword(body.newPassword);
      await withSystem(db, async (tx) => {
        await usersService.setPasswordHash(tx, ctx.userUuid, passwordHash);
        await repo.revokeUserFamilies(tx, ctx.userUuid);
      });
      sessionsEnded();
      return issueSession(ctx.userUuid, randomUUID(), userAgent);
    },

  };
}
export type AuthService = ReturnType<typeof createAuthService>;
