import { and, eq, isNull, sql } from 'drizzle-orm';
import type { ReadTx, WriteTx } from '../../db/scope.js';
import { refreshTokens, trustedDevices } from '../../db/schema/users.js';

export async function insertRefreshToken(
  tx: WriteTx,
  values: { userUuid: string; family: string; tokenHash: string; expiresAt: Date; createdAt?: Date; userAgent?: string | null },
) {
  await tx.insert(refreshTokens).values(values);
}

/** When a session began: its family's first token (families are only ever deleted whole, deleteExpired). */
export async function sessionStartedAt(tx: ReadTx, family: string): Promise<Date> {
  const [row] = await tx
    .select({ startedAt: sql<Date>`min(${refreshTokens.createdAt})`.mapWith(refreshTokens.createdAt) })
    .from(refreshTokens)
    .where(eq(refreshTokens.family, family));
  return row!.startedAt;
}

export async function findRefreshToken(tx: ReadTx, tokenHash: string) {
  const [row] = await tx.select().from(refreshTokens).where(eq(refreshTokens.tokenHash, tokenHash)).limit(1);
  return row ?? null;
}

/**
 * Marks the token used, only if nobody used it first (the loser of a race sees a reuse) and its
 * family is still live: a token issued by a refresh racing a logout cannot revive the session.
 */
export async function claimRefreshToken(tx: WriteTx, uuid: string, family: string) {
  const rows = await tx
    .update(refreshTokens)
    .set({ usedAt: new Date() })
    .where(
      and(
        eq(refreshTokens.uuid, uuid),
        isNull(refreshTokens.usedAt),
        isNull(refreshTokens.revokedAt),
        sql`not exists (select 1 from ${refreshTokens} revoked where revoked.family = ${family} and revoked.revoked_at is not null)`,
      ),
    )
    .returning({ uuid: refreshTokens.uuid });
  return rows.length === 1;
}

export async function revokeFamily(tx: WriteTx, family: string) {
  await tx
    .update(refreshTokens)
    .set({ revokedAt: sql`coalesce(${refreshTokens.revokedAt}, now())` })
    .where(eq(refreshTokens.family, family));
}

/**
 * Ends every session of a user (a password change, a recovery link, « Se déconnecter partout »),
 * and forgets the browsers remembered for the second step (decision 035): whoever had the old
 * password and a remembered browser must type a code again.
 */
export async function revokeUserFamilies(tx: WriteTx, userUuid: string) {
  await tx
    .update(refreshTokens)
    .set({ revokedAt: sql`coalesce(${refreshTokens.revokedAt}, now())` })
    .where(eq(refreshTokens.userUuid, userUuid));
  await tx.delete(trustedDevices).where(eq(trustedDevices.userUuid, userUuid));
}

/**
 * Forgets tokens expired over a day ago, by whole families only: a revoked family must stay
 * revoked while any token of it (one issued by a refresh racing the revocation) could be shown.
 */
export async function deleteExpired(tx: WriteTx) {
  await tx
    .delete(refreshTokens)
    .where(
      sql`${refreshTokens.expiresAt} < now() - interval '1 day' and not exists (select 1 from ${refreshTokens} live where live.family = ${refreshTokens.family} and live.expires_at >= now() - interval '1 day')`,
    );
}
