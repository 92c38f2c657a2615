import { eq } from 'drizzle-orm';
import type { Database } from '../../db/client.js';
import { users } from '../../db/schema/users.js';
import { withSystem } from '../../db/scope.js';
import { ConflictError, ForbiddenError, NotFoundError } from '../../errors.js';
import { type AuthContext, isRoot, managesEnvironment } from '../../lib/auth-context.js';
import type { MailService } from '../../platform/platform-jobs.js';
import { turnOffForUser } from '../auth/totp.service.js';
import * as repo from './organizations.repository.js';
import { LINK_NOT_FOUND } from './organizations.service.js';

export const TWO_FACTOR_RESET_FORBIDDEN_MESSAGE =
  'Seuls le superadmin de l’environnement et l’opérateur de la plateforme peuvent désactiver la double authentification d’un membre';
export const TWO_FACTOR_RESET_STAFF_MESSAGE = 'Seul l’opérateur de la plateforme peut désactiver la double authentification d’un superadmin';
export const TWO_FACTOR_RESET_SELF_MESSAGE = 'Désactivez votre propre double authentification depuis votre compte, avec un code';
export const TWO_FACTOR_NOT_ENABLED_MESSAGE = 'Ce membre ne se connecte pas avec la double authentification : il n’y a rien à désactiver';

/**
 * A member lost the phone of its authenticator app and its recovery codes (decision 035): the
 * broker of its organization's environment (or ROOT) turns its two-factor sign-in off. Its key,
 * recovery codes and remembered browsers go, its sessions end, and it is told by e-mail. A
 * superadmin's or ROOT's own second factor is only ROOT's to reset; nobody resets their own here.
 */
export async function resetMemberTwoFactor(
  db: Database,
  ctx: AuthContext,
  linkUuid: string,
  deps: { mail: () => MailService; baseUrl: string; onSessionsEnded: () => void },
): Promise<void> {
  await withSystem(db, async (tx) => {
    const link = await repo.findLink(tx, linkUuid);
    if (!link) throw new NotFoundError(LINK_NOT_FOUND);
    const organization = link.organization as repo.OrganizationRow;
    const manages = isRoot(ctx) || managesEnvironment(ctx, organization.environmentUuid);
    if (!manages) {
      // A member of the organization learns it may not; anyone else, that the link does not exist.
      if (!(await repo.findLinkFor(tx, link.organizationUuid, ctx.userUuid))) throw new NotFoundError(LINK_NOT_FOUND);
      throw new ForbiddenError(TWO_FACTOR_RESET_FORBIDDEN_MESSAGE);
    }
    if (link.user.uuid === ctx.userUuid) throw new ForbiddenError(TWO_FACTOR_RESET_SELF_MESSAGE);
    if (!isRoot(ctx) && link.user.roles.some((role) => role === 'SUPERADMIN' || role === 'ROOT')) throw new ForbiddenError(TWO_FACTOR_RESET_STAFF_MESSAGE);
    if (!link.user.twoFactor) throw new ConflictError(TWO_FACTOR_NOT_ENABLED_MESSAGE);
    await turnOffForUser(tx, link.user.uuid);
    const [actor] = await tx.select({ firstName: users.firstName, lastName: users.lastName }).from(users).where(eq(users.uuid, ctx.userUuid)).limit(1);
    await deps.mail().queue(tx, {
      template: 'two-factor-reset',
      to: link.user.email,
      data: { firstName: link.user.firstName, by: actor ? `${actor.firstName} ${actor.lastName}` : 'Votre courtier', organization: organization.title },
      baseUrl: deps.baseUrl,
      organizationUuid: link.organizationUuid,
    });
  });
  deps.onSessionsEnded();
}
