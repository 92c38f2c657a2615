import { and, eq, gt, isNotNull, isNull, lt, or, sql } from 'drizzle-orm';
import type { ReadTx, WriteTx } from '../../db/scope.js';
import { environments, environmentUsers } from '../../db/schema/environments.js';
import { loginChallenges, totpRecoveryCodes, trustedDevices, users, userTotp } from '../../db/schema/users.js';

export async function findTotp(tx: ReadTx, userUuid: string) {
  const [row] = await tx.select().from(userTotp).where(eq(userTotp.userUuid, userUuid)).limit(1);
  return row ?? null;
}

/** Whether the user signs in with a code (a setup waiting for its first code does not count). */
export async function hasTotpEnabled(tx: ReadTx, userUuid: string) {
  return Boolean((await findTotp(tx, userUuid))?.enabledAt);
}

/** A new key waiting for its first code: replaces a setup left unfinished, never an enabled one. */
export async function savePendingSecret(tx: WriteTx, userUuid: string, secret: string) {
  const rows = await tx
    .insert(userTotp)
    .values({ userUuid, secret })
    .onConflictDoUpdate({ target: userTotp.userUuid, set: { secret, lastStep: null, createdAt: new Date() }, where: isNull(userTotp.enabledAt) })
    .returning({ userUuid: userTotp.userUuid });
  return rows.length === 1;
}

/** Records the step of an accepted code, only if it is later than the last one (no code serves twice). */
export async function claimStep(tx: WriteTx, userUuid: string, step: number) {
  const rows = await tx
    .update(userTotp)
    .set({ lastStep: step })
    .where(and(eq(userTotp.userUuid, userUuid), or(isNull(userTotp.lastStep), lt(userTotp.lastStep, step))))
    .returning({ userUuid: userTotp.userUuid });
  return rows.length === 1;
}

export async function markEnabled(tx: WriteTx, userUuid: string) {
  const rows = await tx
    .update(userTotp)
    .set({ enabledAt: new Date() })
    .where(and(eq(userTotp.userUuid, userUuid), isNull(userTotp.enabledAt)))
    .returning({ userUuid: userTotp.userUuid });
  return rows.length === 1;
}

/** Turns TOTP off: the key, the recovery codes and the remembered browsers go. */
export async function deleteTotp(tx: WriteTx, userUuid: string) {
  await tx.delete(userTotp).where(eq(userTotp.userUuid, userUuid));
  await tx.delete(totpRecoveryCodes).where(eq(totpRecoveryCodes.userUuid, userUuid));
  await tx.delete(trustedDevices).where(eq(trustedDevices.userUuid, userUuid));
}

export async function replaceRecoveryCodes(tx: WriteTx, userUuid: string, codeHashes: string[]) {
  await tx.delete(totpRecoveryCodes).where(eq(totpRecoveryCodes.userUuid, userUuid));
  await tx.insert(totpRecoveryCodes).values(codeHashes.map((codeHash) => ({ userUuid, codeHash })));
}

/** Spends a recovery code: of two racing uses, one wins. */
export async function claimRecoveryCode(tx: WriteTx, userUuid: string, codeHash: string) {
  const rows = await tx
    .update(totpRecoveryCodes)
    .set({ usedAt: new Date() })
    .where(and(eq(totpRecoveryCodes.userUuid, userUuid), eq(totpRecoveryCodes.codeHash, codeHash), isNull(totpRecoveryCodes.usedAt)))
    .returning({ uuid: totpRecoveryCodes.uuid });
  return rows.length === 1;
}

export async function countRecoveryCodesLeft(tx: ReadTx, userUuid: string) {
  const [row] = await tx
    .select({ count: sql<number>`count(*)::int` })
    .from(totpRecoveryCodes)
    .where(and(eq(totpRecoveryCodes.userUuid, userUuid), isNull(totpRecoveryCodes.usedAt)));
  return row?.count ?? 0;
}

/** A SUPERADMIN attached to an environment that requires two-factor sign-in. */
export async function isTotpRequired(tx: ReadTx, userUuid: string) {
  const [row] = await tx
    .select({ uuid: users.uuid })
    .from(users)
    .innerJoin(environmentUsers, eq(environmentUsers.userUuid, users.uuid))
    .innerJoin(environments, and(eq(environments.uuid, environmentUsers.environmentUuid), eq(environments.requireSuperadminTotp, true)))
    .where(and(eq(users.uuid, userUuid), sql`'SUPERADMIN' = any(${users.roles})`))
    .limit(1);
  return row !== undefined;
}

export async function findUserEmail(tx: ReadTx, userUuid: string) {
  const [row] = await tx.select({ email: users.email }).from(users).where(eq(users.uuid, userUuid)).limit(1);
  return row?.email ?? null;
}

export async function insertChallenge(tx: WriteTx, values: { userUuid: string; tokenHash: string; mode: 'code' | 'setup'; expiresAt: Date }) {
  // Expired challenges of anyone go at each new one: they are few and short-lived.
  await tx.delete(loginChallenges).where(lt(loginChallenges.expiresAt, sql`now() - interval '1 day'`));
  await tx.insert(loginChallenges).values(values);
}

/** A live challenge (unused, not expired). */
export async function findLiveChallenge(tx: ReadTx, tokenHash: string) {
  const [row] = await tx
    .select()
    .from(loginChallenges)
    .where(and(eq(loginChallenges.tokenHash, tokenHash), isNull(loginChallenges.usedAt), gt(loginChallenges.expiresAt, new Date())))
    .limit(1);
  return row ?? null;
}

export async function claimChallenge(tx: WriteTx, uuid: string) {
  const rows = await tx
    .update(loginChallenges)
    .set({ usedAt: new Date() })
    .where(and(eq(loginChallenges.uuid, uuid), isNull(loginChallenges.usedAt)))
    .returning({ uuid: loginChallenges.uuid });
  return rows.length === 1;
}

export async function insertTrustedDevice(tx: WriteTx, values: { userUuid: string; tokenHash: string; expiresAt: Date }) {
  await tx.delete(trustedDevices).where(and(eq(trustedDevices.userUuid, values.userUuid), lt(trustedDevices.expiresAt, new Date())));
  await tx.insert(trustedDevices).values(values);
}

export async function isTrustedDevice(tx: ReadTx, userUuid: string, tokenHash: string) {
  const [row] = await tx
    .select({ uuid: trustedDevices.uuid })
    .from(trustedDevices)
    .where(and(eq(trustedDevices.userUuid, userUuid), eq(trustedDevices.tokenHash, tokenHash), gt(trustedDevices.expiresAt, new Date())))
    .innerJoin(userTotp, and(eq(userTotp.userUuid, trustedDevices.userUuid), isNotNull(userTotp.enabledAt)))
    .limit(1);
  return row !== undefined;
}
