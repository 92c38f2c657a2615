import { and, eq, isNull, sql } from 'drizzle-orm';
import type { ReadTx, WriteTx } from '../../db/scope.js';
import { refreshTokens } from '../../db/schema/users.js';

export async function insertRefreshToken(tx: WriteTx, values: { userUuid: string; family: string; tokenHash: string; expiresAt: Date }) {
  await tx.insert(refreshTokens).values(values);
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

/** Ends every session of a user (a password change). */
export async function revokeUserFamilies(tx: WriteTx, userUuid: string) {
  await tx
    .update(refreshTokens)
    .set({ revokedAt: sql`coalesce(${refreshTokens.revokedAt}, now())` })
    .where(eq(refreshTokens.userUuid, userUuid));
}

export async function deleteExpired(tx: WriteTx) {
  await tx.delete(refreshTokens).where(sql`${refreshTokens.expiresAt} < now() - interval '1 day'`);
}
