import { randomBytes } from 'node:crypto';
import { and, eq, isNull, sql } from 'drizzle-orm';
import { environmentUsers } from '../../db/schema/environments.js';
import { passwordResetTokens, users } from '../../db/schema/users.js';
import type { WriteTx } from '../../db/scope.js';
import { hashPassword } from '../../lib/passwords.js';
import { hashRefreshToken } from '../../lib/tokens.js';
import type { MailService } from '../../platform/platform-jobs.js';

/** Days the first superadmin's « choose your password » link works. */
export const SPACE_INVITATION_DAYS = 7;

/** The mailer and the address the links point at. */
export type SpaceMail = { service: MailService; baseUrl: string; now?: () => number };

export type SpaceSuperadmin = {
  environmentUuid: string;
  environmentTitle: string;
  inviterUuid: string;
  email: string;
  firstName: string;
  lastName: string;
};

/**
 * The first superadmin of a new space (decision 043). An address without account gets one at
 * once (role SUPERADMIN, attached to the space, no usable password) and a one-time link to choose
 * its password: a row of the recovery links' table, valid 7 days, that /recover/password spends.
 * An existing account becomes SUPERADMIN, is attached, and is told by e-mail (no link: it signs in
 * as usual). Both in the space's creating transaction: the e-mail leaves after the commit (outbox).
 */
export async function inviteSuperadmin(tx: WriteTx, mail: SpaceMail, input: SpaceSuperadmin): Promise<{ userUuid: string; created: boolean }> {
  const now = mail.now?.() ?? Date.now();
  const [inviter] = await tx.select({ firstName: users.firstName, lastName: users.lastName }).from(users).where(eq(users.uuid, input.inviterUuid)).limit(1);
  const [existing] = await tx
    .select({ uuid: users.uuid, roles: users.roles, firstName: users.firstName, currentEnvironmentUserUuid: users.currentEnvironmentUserUuid })
    .from(users)
    .where(sql`lower(${users.email}) = ${input.email.toLowerCase()}`)
    .limit(1);

  let userUuid: string;
  let token: string | null = null;
  if (existing) {
    userUuid = existing.uuid;
    if (!existing.roles.includes('SUPERADMIN')) {
      await tx.update(users).set({ roles: [...existing.roles, 'SUPERADMIN'], updatedAt: new Date(now) }).where(eq(users.uuid, userUuid));
    }
  } else {
    // Nobody knows this password: the account is reached through the link only.
    const passwordHash = await hashPassword(randomBytes(32).toString('base64url'));
    const [created] = await tx
      .insert(users)
      .values({ email: input.email.toLowerCase(), passwordHash, firstName: input.firstName, lastName: input.lastName, roles: ['SUPERADMIN'] })
      .returning({ uuid: users.uuid });
    userUuid = created!.uuid;
    token = randomBytes(32).toString('base64url');
    await tx.insert(passwordResetTokens).values({ userUuid, tokenHash: hashRefreshToken(token), expiresAt: new Date(now + SPACE_INVITATION_DAYS * 86_400_000) });
  }

  await tx.insert(environmentUsers).values({ environmentUuid: input.environmentUuid, userUuid }).onConflictDoNothing();
  const [link] = await tx
    .select({ uuid: environmentUsers.uuid })
    .from(environmentUsers)
    .where(and(eq(environmentUsers.environmentUuid, input.environmentUuid), eq(environmentUsers.userUuid, userUuid)))
    .limit(1);
  // The new space becomes the one it works in, unless it already works in another.
  await tx
    .update(users)
    .set({ currentEnvironmentUserUuid: link!.uuid })
    .where(and(eq(users.uuid, userUuid), isNull(users.currentEnvironmentUserUuid)));

  await mail.service.queue(tx, {
    template: 'space-invitation',
    to: input.email.toLowerCase(),
    data: {
      firstName: existing?.firstName ?? input.firstName,
      inviterName: inviter ? `${inviter.firstName} ${inviter.lastName}` : 'L’équipe de la plateforme',
      environmentTitle: input.environmentTitle,
      token,
      expiresInDays: SPACE_INVITATION_DAYS,
    },
    // The platform's own brand, not the space's: the operator writes, about the space.
    baseUrl: mail.baseUrl,
  });
  return { userUuid, created: !existing };
}
