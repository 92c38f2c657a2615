import { randomUUID } from 'node:crypto';
import type { LoginBody, LoginResponse } from '@flotte/contract';
import type { Database } from '../../db/client.js';
import { withSystem } from '../../db/scope.js';
import { TooManyRequestsError, UnauthorizedError } from '../../errors.js';
import { FailureLimiter } from '../../lib/failure-limiter.js';
import { dummyPasswordHash, verifyPassword } from '../../lib/passwords.js';
import { type AccessTokens, hashRefreshToken, newRefreshToken, REFRESH_TOKEN_TTL_MS } from '../../lib/tokens.js';
import * as usersService from '../users/users.service.js';
import * as repo from './auth.repository.js';

export const LOGIN_FAILED_MESSAGE = 'Adresse e-mail ou mot de passe incorrect';
export const SESSION_EXPIRED_MESSAGE = 'Session expirée, veuillez vous reconnecter';
const MAX_FAILURES_PER_MINUTE = 10;

export type IssuedSession = LoginResponse & { refreshToken: string; refreshExpiresAt: Date };

export function createAuthService(db: Database, tokens: AccessTokens) {
  const limiter = new FailureLimiter(MAX_FAILURES_PER_MINUTE, 60_000);

  async function issueRefreshToken(userUuid: string, family: string) {
    const { token, hash } = newRefreshToken();
    const expiresAt = new Date(Date.now() + REFRESH_TOKEN_TTL_MS);
    await withSystem(db, (tx) => repo.insertRefreshToken(tx, { userUuid, family, tokenHash: hash, expiresAt }));
    return { token, expiresAt };
  }

  return {
    /** Same 401 for a wrong password and an unknown email; 429 after 10 failures a minute per IP or account. */
    async login(body: LoginBody, ip: string): Promise<IssuedSession> {
      const keys = [`ip:${ip}`, `account:${body.email}`];
      const wait = Math.max(...keys.map((k) => limiter.retryAfter(k)));
      if (wait > 0) {
        throw new TooManyRequestsError(`Trop de tentatives de connexion. Réessayez dans ${wait} secondes.`, wait);
      }
      const credentials = await usersService.findCredentials(db, body.email);
      const valid = await verifyPassword(credentials?.passwordHash ?? (await dummyPasswordHash()), body.password);
      if (!credentials || !valid) {
        keys.forEach((k) => limiter.record(k));
        throw new UnauthorizedError(LOGIN_FAILED_MESSAGE);
      }
      limiter.reset(`account:${body.email}`);
      await usersService.ensureCurrentScope(db, credentials.uuid);
      const [accessToken, refresh, user] = await Promise.all([
        tokens.sign(credentials.uuid),
        issueRefreshToken(credentials.uuid, randomUUID()),
        usersService.getProfile(db, credentials.uuid),
      ]);
      return { tokens: { access_token: accessToken }, user, refreshToken: refresh.token, refreshExpiresAt: refresh.expiresAt };
    },

    /** Rotates the refresh token; a reused, expired or revoked one revokes its whole family. */
    async refresh(refreshToken: string | undefined) {
      if (!refreshToken) throw new UnauthorizedError(SESSION_EXPIRED_MESSAGE);
      const outcome = await withSystem(db, async (tx) => {
        const row = await repo.findRefreshToken(tx, hashRefreshToken(refreshToken));
        if (!row) return null;
        const usable = row.expiresAt > new Date() && (await repo.claimRefreshToken(tx, row.uuid));
        if (!usable) {
          await repo.revokeFamily(tx, row.family);
          return { revoked: true as const };
        }
        return { revoked: false as const, userUuid: row.userUuid, family: row.family };
      });
      if (!outcome || outcome.revoked) throw new UnauthorizedError(SESSION_EXPIRED_MESSAGE);
      const [accessToken, refresh] = await Promise.all([
        tokens.sign(outcome.userUuid),
        issueRefreshToken(outcome.userUuid, outcome.family),
      ]);
      return { tokens: { access_token: accessToken }, refreshToken: refresh.token, refreshExpiresAt: refresh.expiresAt };
    },

    async logout(refreshToken: string | undefined) {
      if (!refreshToken) return;
      await withSystem(db, async (tx) => {
        const row = await repo.findRefreshToken(tx, hashRefreshToken(refreshToken));
        if (row) await repo.revokeFamily(tx, row.family);
        await repo.deleteExpired(tx);
      });
    },
  };
}
export type AuthService = ReturnType<typeof createAuthService>;
