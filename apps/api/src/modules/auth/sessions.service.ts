import type { AccountSession } from '@flotte/contract';
import { and, desc, eq, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.js';
import { refreshTokens } from '../../db/schema/users.js';
import { readSystem, withSystem } from '../../db/scope.js';
import { NotFoundError } from '../../errors.js';
import type { AuthContext } from '../../lib/auth-context.js';
import type { Clock } from '../../lib/tokens.js';
import * as repo from './auth.repository.js';
import { deviceLabel } from './device-label.js';

/**
 * The user's sessions as /account lists them (decision 036): a session is a refresh-token family
 * (decisions 003, 014) none of whose tokens is revoked and one of which has not expired. Opened at
 * its first token, last used at its newest (each refresh writes one), on the device of its login.
 * Expiry is read on the app's clock, the one the refresh counts lifetimes by (auth.service).
 */
export async function listSessions(db: Database, ctx: AuthContext, now: Clock): Promise<{ data: AccountSession[] }> {
  const lastUsedAt = sql<Date>`max(${refreshTokens.createdAt})`.mapWith(refreshTokens.createdAt);
  const rows = await readSystem(db, (tx) =>
    tx
      .select({
        family: refreshTokens.family,
        createdAt: sql<Date>`min(${refreshTokens.createdAt})`.mapWith(refreshTokens.createdAt),
        lastUsedAt,
        userAgent: sql<string | null>`(array_agg(${refreshTokens.userAgent} order by ${refreshTokens.createdAt} desc))[1]`,
      })
      .from(refreshTokens)
      .where(eq(refreshTokens.userUuid, ctx.userUuid))
      .groupBy(refreshTokens.family)
      .having(sql`bool_and(${refreshTokens.revokedAt} is null) and max(${refreshTokens.expiresAt}) > ${new Date(now()).toISOString()}::timestamptz`)
      .orderBy(desc(lastUsedAt)),
  );
  return {
    data: rows.map((row) => ({
      uuid: row.family,
      device: deviceLabel(row.userAgent),
      createdAt: row.createdAt.toISOString(),
      lastUsedAt: row.lastUsedAt.toISOString(),
      current: row.family === ctx.sessionUuid,
    })),
  };
}

const SESSION_NOT_FOUND = 'Session introuvable ou déjà terminée';

/** Ends one live session of the caller (another user's, or an ended one, is a 404). */
export async function revokeSession(db: Database, ctx: AuthContext, family: string, now: Clock): Promise<void> {
  await withSystem(db, async (tx) => {
    const tokens = await tx
      .select({ revokedAt: refreshTokens.revokedAt, expiresAt: refreshTokens.expiresAt })
      .from(refreshTokens)
      .where(and(eq(refreshTokens.family, family), eq(refreshTokens.userUuid, ctx.userUuid)));
    const at = new Date(now());
    const live = tokens.length > 0 && tokens.every((token) => token.revokedAt === null) && tokens.some((token) => token.expiresAt > at);
    if (!live) throw new NotFoundError(SESSION_NOT_FOUND);
    await repo.revokeFamily(tx, family);
  });
}

/** « Se déconnecter partout »: every session of the caller ends, this one included. */
export async function revokeAllSessions(db: Database, ctx: AuthContext): Promise<void> {
  await withSystem(db, (tx) => repo.revokeUserFamilies(tx, ctx.userUuid));
}
