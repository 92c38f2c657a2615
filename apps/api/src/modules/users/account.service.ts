import { randomBytes } from 'node:crypto';
import {
  AVATAR_MAX_BYTES,
  AVATAR_SIZE,
  EMAIL_CHANGE_LINK_HOURS,
  EMAIL_CHANGE_LINK_INVALID_MESSAGE,
  emailChangeRequestedMessage,
  type AccountOrganization,
  type ChangeEmailBody,
  type User,
} from '@flotte/contract';
import { and, eq, gt, isNull, ne, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.js';
import { emailChangeTokens, users } from '../../db/schema/users.js';
import { readSystem, withSystem } from '../../db/scope.js';
import { BadRequestError, ConflictError, NotFoundError } from '../../errors.js';
import type { AuthContext } from '../../lib/auth-context.js';
import { hashRefreshToken } from '../../lib/tokens.js';
import type { MailService } from '../../platform/platform-jobs.js';
import type { ObjectStorage } from '../../platform/storage/storage.js';
import { sameHash } from '../../lib/tokens.js';
import { imageTooLargeMessage, NOT_AN_IMAGE_MESSAGE, publicImages } from '../../platform/images/public-images.js';
import { membershipsOf, organizationsWhereLastAdmin } from '../organizations/last-admin.js';
import * as usersService from './users.service.js';

/**
 * The account page's calls (/account, issue 15, decision 036): the avatar, the e-mail change,
 * the user's organizations and the deletion of the account. A user's own data: system scope.
 */

export type AccountDeps = {
  db: Database;
  storage: ObjectStorage;
  mail: () => MailService;
  /** Checks the caller's current password (limited as a login is; 400 under currentPassword). */
  confirmPassword: (ctx: AuthContext, password: string, ip: string) => Promise<void>;
  /** Sessions ended: the cached contexts of this process must go. */
  onSessionsEnded?: () => void;
  now?: () => number;
};

export { NOT_AN_IMAGE_MESSAGE };
export const AVATAR_TOO_LARGE_MESSAGE = imageTooLargeMessage(AVATAR_MAX_BYTES);
const SAME_EMAIL_MESSAGE = 'C’est déjà l’adresse e-mail de votre compte.';
const EMAIL_TAKEN_MESSAGE = 'Cette adresse e-mail est devenue celle d’un autre compte entre-temps : la modification est impossible.';

// ---------------------------------------------------------------- avatar

/**
 * `/api/user/<uuid>/avatar/<version>`, kept under `avatars/<uuid>/`: a square WebP of AVATAR_SIZE
 * px, centre-cropped if the client did not (the public images of decision 042).
 */
export const avatars = publicImages({
  urlPrefix: (userUuid) => `/api/user/${userUuid}/avatar/`,
  folder: (userUuid) => `avatars/${userUuid}`,
  shape: { width: AVATAR_SIZE, height: AVATAR_SIZE, fit: 'cover' },
});
export const avatarUrlOf = avatars.urlOf;

/** Replaces the user's avatar by this image (resized here); the previous one is removed. */
export async function setAvatar(deps: AccountDeps, ctx: AuthContext, input: Buffer): Promise<User> {
  await avatars.replace(deps.storage, ctx.userUuid, input, (url) =>
    withSystem(deps.db, async (tx) => {
      const [row] = await tx.select({ avatarUrl: users.avatarUrl }).from(users).where(eq(users.uuid, ctx.userUuid)).for('update');
      if (!row) throw new NotFoundError('Utilisateur introuvable');
      await tx.update(users).set({ avatarUrl: url, updatedAt: new Date() }).where(eq(users.uuid, ctx.userUuid));
      return { previous: row.avatarUrl, result: undefined };
    }),
  );
  return usersService.getProfile(deps.db, ctx.userUuid);
}

export async function removeAvatar(deps: AccountDeps, ctx: AuthContext): Promise<User> {
  const previous = await withSystem(deps.db, async (tx) => {
    const [row] = await tx.select({ avatarUrl: users.avatarUrl }).from(users).where(eq(users.uuid, ctx.userUuid)).for('update');
    await tx.update(users).set({ avatarUrl: null, updatedAt: new Date() }).where(eq(users.uuid, ctx.userUuid));
    return row?.avatarUrl ?? null;
  });
  await avatars.discard(deps.storage, ctx.userUuid, previous);
  return usersService.getProfile(deps.db, ctx.userUuid);
}

/** The avatar's bytes, when this is the user's avatar in force (an older version is a 404). */
export async function openAvatar(deps: Pick<AccountDeps, 'db' | 'storage'>, userUuid: string, version: string) {
  const [row] = await readSystem(deps.db, (tx) => tx.select({ avatarUrl: users.avatarUrl }).from(users).where(eq(users.uuid, userUuid)));
  const image = await avatars.open(deps.storage, userUuid, version, row?.avatarUrl);
  if (!image) throw new NotFoundError('Image introuvable');
  return image;
}

// ---------------------------------------------------------------- e-mail change

/**
 * Asks for the change: a link to the new address, a word to the old one. When the new address
 * already has an account, its owner is told instead of a link being sent; the answer is the same.
 */
export async function requestEmailChange(deps: AccountDeps, ctx: AuthContext, body: ChangeEmailBody, ip: string, baseUrl: string): Promise<{ message: string }> {
  await deps.confirmPassword(ctx, body.currentPassword, ip);
  const now = deps.now?.() ?? Date.now();
  const token = randomBytes(32).toString('base64url');
  await withSystem(deps.db, async (tx) => {
    const [me] = await tx.select({ email: users.email, firstName: users.firstName }).from(users).where(eq(users.uuid, ctx.userUuid));
    if (!me) throw new NotFoundError('Utilisateur introuvable');
    if (me.email.toLowerCase() === body.newEmail) throw new BadRequestError(SAME_EMAIL_MESSAGE, [{ path: 'newEmail', message: SAME_EMAIL_MESSAGE }]);
    const [taken] = await tx.select({ uuid: users.uuid }).from(users).where(sql`lower(${users.email}) = ${body.newEmail}`).limit(1);
    // One live link at a time: a new request makes the earlier ones useless.
    await tx.update(emailChangeTokens).set({ usedAt: new Date(now) }).where(and(eq(emailChangeTokens.userUuid, ctx.userUuid), isNull(emailChangeTokens.usedAt)));
    if (taken) {
      await deps.mail().queue(tx, { template: 'email-change-taken', to: body.newEmail, data: {}, baseUrl });
    } else {
      await tx.insert(emailChangeTokens).values({ userUuid: ctx.userUuid, newEmail: body.newEmail, tokenHash: hashRefreshToken(token), expiresAt: new Date(now + EMAIL_CHANGE_LINK_HOURS * 3_600_000) });
      await deps.mail().queue(tx, {
        template: 'email-change-confirmation',
        to: body.newEmail,
        data: { firstName: me.firstName, newEmail: body.newEmail, token, expiresInHours: EMAIL_CHANGE_LINK_HOURS },
        baseUrl,
      });
    }
    await deps.mail().queue(tx, { template: 'email-change-notice', to: me.email, data: { firstName: me.firstName, newEmail: body.newEmail }, baseUrl });
  });
  return { message: emailChangeRequestedMessage(body.newEmail) };
}

/** Opens the link: the caller's address becomes the new one; the link is spent (single use). */
export async function confirmEmailChange(deps: AccountDeps, ctx: AuthContext, token: string): Promise<User> {
  const now = deps.now?.() ?? Date.now();
  const hash = hashRefreshToken(token);
  const invalid = () => new BadRequestError(EMAIL_CHANGE_LINK_INVALID_MESSAGE, [{ path: 'token', message: EMAIL_CHANGE_LINK_INVALID_MESSAGE }]);
  await withSystem(deps.db, async (tx) => {
    const [row] = await tx
      .select()
      .from(emailChangeTokens)
      .where(and(eq(emailChangeTokens.tokenHash, hash), eq(emailChangeTokens.userUuid, ctx.userUuid), isNull(emailChangeTokens.usedAt), gt(emailChangeTokens.expiresAt, new Date(now))))
      .limit(1);
    if (!row || !sameHash(row.tokenHash, hash)) throw invalid();
    // Claimed only if nobody used it first: of two racing uses, one wins.
    const claimed = await tx
      .update(emailChangeTokens)
      .set({ usedAt: new Date(now) })
      .where(and(eq(emailChangeTokens.uuid, row.uuid), isNull(emailChangeTokens.usedAt)))
      .returning({ uuid: emailChangeTokens.uuid });
    if (claimed.length !== 1) throw invalid();
    const [taken] = await tx
      .select({ uuid: users.uuid })
      .from(users)
      .where(and(sql`lower(${users.email}) = ${row.newEmail}`, ne(users.uuid, ctx.userUuid)))
      .limit(1);
    if (taken) throw new ConflictError(EMAIL_TAKEN_MESSAGE);
    await tx.update(users).set({ email: row.newEmail, updatedAt: new Date() }).where(eq(users.uuid, ctx.userUuid));
  });
  return usersService.getProfile(deps.db, ctx.userUuid);
}

// ---------------------------------------------------------------- organizations

export async function organizationsOf(db: Database, ctx: AuthContext): Promise<{ data: AccountOrganization[] }> {
  const rows = await readSystem(db, (tx) => membershipsOf(tx, ctx.userUuid));
  return { data: rows.map(({ uuid, title, role, linkUuid }) => ({ uuid, title, role, current: linkUuid === ctx.organizationUserUuid })) };
}

// ---------------------------------------------------------------- deletion

/** « Vous êtes le seul administrateur de Transports Durand et Garage Martin. » */
function lastAdminMessage(titles: string[]): string {
  const names = titles.map((title) => `« ${title} »`);
  const list = names.length > 1 ? `${names.slice(0, -1).join(', ')} et ${names.at(-1)}` : names[0];
  return `Vous êtes le seul administrateur de ${list} : nommez d’abord un autre administrateur${names.length > 1 ? ' dans chacune' : ''}, puis supprimez votre compte.`;
}

/**
 * Deletes the caller's account: their personal data goes (links, sessions, tokens: cascades;
 * their name leaves what they authored), their organizations' data stays. Refused (409) while
 * they are the last ADMIN of an organization.
 */
export async function deleteAccount(deps: AccountDeps, ctx: AuthContext, targetUuid: string, currentPassword: string, ip: string): Promise<void> {
  if (targetUuid !== ctx.userUuid) throw new NotFoundError('Utilisateur introuvable');
  await deps.confirmPassword(ctx, currentPassword, ip);
  const avatarUrl = await withSystem(deps.db, async (tx) => {
    const [me] = await tx.select({ avatarUrl: users.avatarUrl }).from(users).where(eq(users.uuid, ctx.userUuid)).for('update');
    if (!me) throw new NotFoundError('Utilisateur introuvable');
    const lastOf = await organizationsWhereLastAdmin(tx, ctx.userUuid);
    if (lastOf.length > 0) throw new ConflictError(lastAdminMessage(lastOf.map((org) => org.title)));
    await tx.delete(users).where(eq(users.uuid, ctx.userUuid));
    return me.avatarUrl;
  });
  deps.onSessionsEnded?.();
  await avatars.discard(deps.storage, ctx.userUuid, avatarUrl);
}
