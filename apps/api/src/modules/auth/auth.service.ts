import { randomUUID } from 'node:crypto';
import type { ChangePasswordBody, LoginBody, LoginResponse } from '@flotte/contract';
import type { Database } from '../../db/client.js';
import { withSystem } from '../../db/scope.js';
import { BadRequestError, TooManyRequestsError, UnauthorizedError } from '../../errors.js';
import type { AuthContext } from '../../lib/auth-context.js';
import type { FailureStore } from '../../lib/failure-limiter.js';
import { DEFAULT_LOGIN_LIMITS, type LoginAdmission, LoginLimits, type LoginLimitsOptions, tooManyAttemptsMessage } from '../../lib/login-limits.js';
import { dummyPasswordHash, hashPassword, verifyPassword } from '../../lib/passwords.js';
import { type AccessTokens, hashRefreshToken, newRefreshToken, REFRESH_TOKEN_TTL_MS } from '../../lib/tokens.js';
import * as usersService from '../users/users.service.js';
import * as repo from './auth.repository.js';

export const LOGIN_FAILED_MESSAGE = 'Adresse e-mail ou mot de passe incorrect';
export const SESSION_EXPIRED_MESSAGE = 'Session expirée, veuillez vous reconnecter';
export const WRONG_CURRENT_PASSWORD_MESSAGE = 'Mot de passe actuel incorrect';

export type IssuedSession = LoginResponse & { refreshToken: string; refreshExpiresAt: Date };

export type AuthServiceOptions = {
  /** Called when sessions end: the cached contexts of this process must go at once. */
  onSessionsEnded?: () => void;
  loginLimits?: LoginLimitsOptions;
  /** Where login failures are counted: shared by every process on a PostgreSQL server (platform/failure-stores.ts); in memory by default. */
  failureStore?: FailureStore;
  /** Tests: how the account-wide slow-down waits. */
  sleep?: (ms: number) => Promise<void>;
};

const wait = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export function createAuthService(db: Database, tokens: AccessTokens, options: AuthServiceOptions = {}) {
  const limits = new LoginLimits(options.failureStore, options.loginLimits ?? DEFAULT_LOGIN_LIMITS);
  const sleep = options.sleep ?? wait;
  const sessionsEnded = () => options.onSessionsEnded?.();

  /** A session is a refresh-token family; its access tokens name it (decision 014). */
  async function issueSession(userUuid: string, sessionUuid: string) {
    const { token, hash } = newRefreshToken();
    const expiresAt = new Date(Date.now() + REFRESH_TOKEN_TTL_MS);
    const [accessToken] = await Promise.all([
      tokens.sign({ userUuid, sessionUuid }),
      withSystem(db, (tx) => repo.insertRefreshToken(tx, { userUuid, family: sessionUuid, tokenHash: hash, expiresAt })),
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

  return {
    /** Same 401 for a wrong password and an unknown email; 429 for an address that failed too often. */
    async login(body: LoginBody, ip: string): Promise<IssuedSession> {
      const admission = await admit(body.email, ip);
      const credentials = await usersService.findCredentials(db, body.email);
      // An unknown email is checked too (against a dummy hash): both failures take the same time.
      const valid = await checkPassword(body.email, ip, admission, credentials?.passwordHash, body.password);
      if (!credentials || !valid) throw new UnauthorizedError(LOGIN_FAILED_MESSAGE);
      await usersService.ensureCurrentScope(db, credentials.uuid);
      const [session, user] = await Promise.all([issueSession(credentials.uuid, randomUUID()), usersService.getProfile(db, credentials.uuid)]);
      return { ...session, user };
    },

    /** Rotates the refresh token; a reused, expired or revoked one revokes its whole family. */
    async refresh(refreshToken: string | undefined) {
      if (!refreshToken) throw new UnauthorizedError(SESSION_EXPIRED_MESSAGE);
      const outcome = await withSystem(db, async (tx) => {
        const row = await repo.findRefreshToken(tx, hashRefreshToken(refreshToken));
        if (!row) return null;
        const usable = row.expiresAt > new Date() && (await repo.claimRefreshToken(tx, row.uuid, row.family));
        if (!usable) {
          await repo.revokeFamily(tx, row.family);
          return { revoked: true as const };
        }
        return { revoked: false as const, userUuid: row.userUuid, family: row.family };
      });
      if (outcome?.revoked) sessionsEnded();
      if (!outcome || outcome.revoked) throw new UnauthorizedError(SESSION_EXPIRED_MESSAGE);
      return issueSession(outcome.userUuid, outcome.family);
    },

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
    async changePassword(ctx: AuthContext, body: ChangePasswordBody, ip: string) {
      const own = await usersService.findOwnCredentials(db, ctx.userUuid);
      if (!own) throw new UnauthorizedError(SESSION_EXPIRED_MESSAGE);
      const account = own.email.toLowerCase();
      const admission = await admit(account, ip);
      if (!(await checkPassword(account, ip, admission, own.passwordHash, body.currentPassword))) {
        throw new BadRequestError(WRONG_CURRENT_PASSWORD_MESSAGE, [{ path: 'currentPassword', message: WRONG_CURRENT_PASSWORD_MESSAGE }]);
      }
      const passwordHash = await hashPassword(body.newPassword);
      await withSystem(db, async (tx) => {
        await usersService.setPasswordHash(tx, ctx.userUuid, passwordHash);
        await repo.revokeUserFamilies(tx, ctx.userUuid);
      });
      sessionsEnded();
      return issueSession(ctx.userUuid, randomUUID());
    },
  };
}
export type AuthService = ReturnType<typeof createAuthService>;
