import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { AVATAR_MAX_BYTES, EMAIL_CHANGE_LINK_INVALID_MESSAGE, emailChangeRequestedMessage } from '@flotte/contract';
import { eq, sql } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mailOutbox } from '../../db/schema/mail.js';
import { drivers } from '../../db/schema/drivers.js';
import { organizations, organizationUsers } from '../../db/schema/organizations.js';
import { emailChangeTokens, refreshTokens, users } from '../../db/schema/users.js';
import { createDrivers, createOrganization, createUser, linkUser } from '../../seed/factories.js';
import { createTestApp, DEFAULT_TEST_PASSWORD, type TestContext } from '../../../test/test-app.js';
import { REFRESH_COOKIE } from '../auth/auth.routes.js';

let t: TestContext;
beforeAll(async () => {
  // Errors logged to the run's output: the avatar upload answered 500 twice under heavy load
  // (load average 20+) without a cause in sight; the next one says why.
  t = await createTestApp({ PUBLIC_URL: 'https://flotte.exemple.fr', LOG_LEVEL: 'error' }, {}, process.stderr);
});
afterAll(() => t.close());

let ipCounter = 0;
const nextIp = () => `10.8.${Math.floor(++ipCounter / 200)}.${ipCounter % 200}`;
async function signIn(email: string, password = DEFAULT_TEST_PASSWORD) {
  const response = await t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email, password }, remoteAddress: nextIp() });
  return response;
}
async function tokenOf(email: string) {
  const response = await signIn(email);
  expect(response.statusCode, response.body).toBe(200);
  return response.json().tokens.access_token as string;
}
const newUser = (email: string, roles?: string[]) => t.seed((tx) => createUser(tx, { email, roles: roles as never }));

/** A multipart body of one file, as the browser sends the cropped canvas. */
function upload(content: Buffer, type = 'image/png', field = 'file') {
  const boundary = '----avatar' + Math.random().toString(16).slice(2);
  const head = Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="avatar.png"\r\nContent-Type: ${type}\r\n\r\n`);
  return { payload: Buffer.concat([head, content, Buffer.from(`\r\n--${boundary}--\r\n`)]), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}
const picture = (width: number, height: number) => sharp({ create: { width, height, channels: 3, background: { r: 200, g: 80, b: 40 } } }).png().toBuffer();
const avatarFiles = (userUuid: string) => {
  const folder = path.join(t.dataDir, 'media', 'avatars', userUuid);
  return existsSync(folder) ? readdirSync(folder) : [];
};
const avatarUrlOf = async (uuid: string) => (await t.seed((tx) => tx.select({ url: users.avatarUrl }).from(users).where(eq(users.uuid, uuid))))[0]!.url;

describe('avatar', () => {
  it('keeps a 256 px square WebP of the image, served at a versioned URL cached for good; a new one replaces it; removal', async () => {
    const own = await newUser('avatar.ok@exemple.fr');
    const token = await tokenOf(own.email);
    const sent = await t.as(token, { method: 'POST', url: '/api/user/avatar', ...upload(await picture(600, 400)) });
    expect(sent.statusCode, sent.body).toBe(200);
    const url = sent.json().avatar.url as string;
    expect(url).toMatch(new RegExp(`^/api/user/${own.uuid}/avatar/[\\w-]{16}$`));

    // No bearer token: an <img> sends none.
    const image = await t.app.inject({ method: 'GET', url });
    expect(image.statusCode).toBe(200);
    expect(image.headers['content-type']).toBe('image/webp');
    expect(image.headers['cache-control']).toBe('private, max-age=31536000, immutable');
    expect(image.headers['x-content-type-options']).toBe('nosniff');
    expect(await sharp(image.rawPayload).metadata()).toMatchObject({ format: 'webp', width: 256, height: 256 });
    expect((await t.as(token, { method: 'GET', url: '/api/auth/me' })).json().avatar).toEqual({ url });

    const again = await t.as(token, { method: 'POST', url: '/api/user/avatar', ...upload(await sharp(await picture(300, 300)).jpeg().toBuffer(), 'image/jpeg') });
    expect(again.statusCode).toBe(200);
    expect(again.json().avatar.url).not.toBe(url);
    expect((await t.app.inject({ method: 'GET', url })).statusCode).toBe(404);
    expect(avatarFiles(own.uuid)).toHaveLength(1);

    const removed = await t.as(token, { method: 'DELETE', url: '/api/user/avatar' });
    expect(removed.statusCode).toBe(200);
    expect(removed.json().avatar).toBeNull();
    expect((await t.app.inject({ method: 'GET', url: again.json().avatar.url })).statusCode).toBe(404);
    expect(avatarFiles(own.uuid)).toHaveLength(0);
  });

  it('refuses what is not an image (415), a file too large (413) and a missing file (400), in French, writing nothing', async () => {
    const own = await newUser('avatar.refus@exemple.fr');
    const token = await tokenOf(own.email);
    const text = await t.as(token, { method: 'POST', url: '/api/user/avatar', ...upload(Buffer.from('pas une image du tout'), 'image/png') });
    expect(text.statusCode).toBe(415);
    expect(text.json().message).toBe('Ce fichier n’est pas une image lisible : choisissez une photo JPEG, PNG ou WebP.');
    const gif = await t.as(token, { method: 'POST', url: '/api/user/avatar', ...upload(await sharp(await picture(10, 10)).gif().toBuffer(), 'image/gif') });
    expect(gif.statusCode).toBe(415);
    const big = await t.as(token, { method: 'POST', url: '/api/user/avatar', ...upload(Buffer.alloc(AVATAR_MAX_BYTES + 10, 1)) });
    expect(big.statusCode).toBe(413);
    expect(big.json().message).toBe('L’image dépasse 5 Mo : choisissez-en une plus légère.');
    const none = await t.as(token, { method: 'POST', url: '/api/user/avatar', payload: { file: 'x' } });
    expect(none.statusCode).toBe(400);
    expect(none.json().message).toBe('Joignez une image (champ multipart « file »).');
    expect(await avatarUrlOf(own.uuid)).toBeNull();
    expect(avatarFiles(own.uuid)).toHaveLength(0);
    expect((await t.app.inject({ method: 'POST', url: '/api/user/avatar', ...upload(await picture(20, 20)) })).statusCode).toBe(401);
  });

  it('serves only the avatar in force: an unknown user, a wrong version or a malformed one is a 404 / 400', async () => {
    const own = await newUser('avatar.lecture@exemple.fr');
    const token = await tokenOf(own.email);
    const url = (await t.as(token, { method: 'POST', url: '/api/user/avatar', ...upload(await picture(64, 64)) })).json().avatar.url as string;
    expect((await t.app.inject({ method: 'GET', url: url.replace(/[\w-]{16}$/, 'AAAAAAAAAAAAAAAA') })).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: url.replace(own.uuid, '00000000-0000-4000-8000-000000000000') })).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: `${url.slice(0, url.lastIndexOf('/'))}/..%2F..%2Fx` })).statusCode).toBe(400);
  });
});

describe('e-mail change', () => {
  const mailsTo = (email: string) =>
    t.seed((tx) => tx.select({ subject: mailOutbox.subject, text: mailOutbox.text }).from(mailOutbox).where(eq(mailOutbox.recipient, email)).orderBy(mailOutbox.createdAt));
  async function linkSentTo(email: string) {
    const mails = await mailsTo(email);
    const match = /https:\/\/flotte\.exemple\.fr\/account\?emailToken=([\w-]+)/.exec(mails.at(-1)?.text ?? '');
    if (!match) throw new Error(`no link sent to ${email}`);
    return match[1]!;
  }
  const ask = (token: string, body: object) => t.as(token, { method: 'POST', url: '/api/user/email', payload: body, remoteAddress: nextIp() });
  const confirm = (token: string, emailToken: string) => t.as(token, { method: 'POST', url: '/api/user/email/confirm', payload: { token: emailToken } });

  it('sends a 24-hour link to the new address and tells the old one; the link changes the address once', async () => {
    const own = await newUser('ancienne@exemple.fr');
    const token = await tokenOf(own.email);
    const asked = await ask(token, { newEmail: ' Nouvelle@Exemple.fr ', currentPassword: DEFAULT_TEST_PASSWORD });
    expect(asked.statusCode).toBe(202);
    expect(asked.json()).toEqual({ message: emailChangeRequestedMessage('nouvelle@exemple.fr') });

    const [toNew] = await mailsTo('nouvelle@exemple.fr');
    expect(toNew!.subject).toBe('Confirmez votre nouvelle adresse e-mail FlotteAssur');
    expect(toNew!.text).toContain('24 heures');
    const [toOld] = await mailsTo('ancienne@exemple.fr');
    expect(toOld!.subject).toBe('Changement d’adresse e-mail demandé sur votre compte FlotteAssur');
    expect(toOld!.text).toContain('nouvelle@exemple.fr');
    expect(toOld!.text).toContain('https://flotte.exemple.fr/recover');

    const emailToken = await linkSentTo('nouvelle@exemple.fr');
    const [row] = await t.seed((tx) => tx.select().from(emailChangeTokens).where(eq(emailChangeTokens.userUuid, own.uuid)));
    expect(row!.tokenHash).not.toContain(emailToken);
    expect(row!.expiresAt.getTime() - row!.createdAt.getTime()).toBeGreaterThan(23.9 * 3_600_000);
    expect(row!.expiresAt.getTime() - row!.createdAt.getTime()).toBeLessThanOrEqual(24.1 * 3_600_000);
    // Nothing changes before the link is opened.
    expect((await signIn('ancienne@exemple.fr')).statusCode).toBe(200);

    const done = await confirm(token, emailToken);
    expect(done.statusCode, done.body).toBe(200);
    expect(done.json().email).toBe('nouvelle@exemple.fr');
    expect((await signIn('nouvelle@exemple.fr')).statusCode).toBe(200);
    expect((await signIn('ancienne@exemple.fr')).statusCode).toBe(401);

    const reused = await confirm(token, emailToken);
    expect(reused.statusCode).toBe(400);
    expect(reused.json().message).toBe(EMAIL_CHANGE_LINK_INVALID_MESSAGE);
  });

  it('refuses a wrong password, a malformed address and the current address in French, writing nothing', async () => {
    const own = await newUser('prudente@exemple.fr');
    const token = await tokenOf(own.email);
    const wrong = await ask(token, { newEmail: 'ailleurs@exemple.fr', currentPassword: 'pas le bon' });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().details).toEqual([{ path: 'currentPassword', message: 'Mot de passe actuel incorrect' }]);
    const malformed = await ask(token, { newEmail: 'pas-une-adresse', currentPassword: DEFAULT_TEST_PASSWORD });
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json().details).toContainEqual({ path: 'newEmail', message: 'Adresse e-mail invalide' });
    const missing = await ask(token, { newEmail: 'ailleurs@exemple.fr' });
    expect(missing.json().details).toContainEqual({ path: 'currentPassword', message: 'Le mot de passe actuel est obligatoire' });
    const same = await ask(token, { newEmail: 'Prudente@exemple.fr', currentPassword: DEFAULT_TEST_PASSWORD });
    expect(same.statusCode).toBe(400);
    expect(same.json().message).toBe('C’est déjà l’adresse e-mail de votre compte.');
    expect(await t.seed((tx) => tx.select().from(emailChangeTokens).where(eq(emailChangeTokens.userUuid, own.uuid)))).toEqual([]);
    expect(await mailsTo('ailleurs@exemple.fr')).toEqual([]);
    expect(await mailsTo('prudente@exemple.fr')).toEqual([]);
  });

  it('an address that already has an account gets the same answer; its owner is told, no link is made', async () => {
    const own = await newUser('curieux@exemple.fr');
    await newUser('occupee@exemple.fr');
    const token = await tokenOf(own.email);
    const free = await ask(token, { newEmail: 'libre@exemple.fr', currentPassword: DEFAULT_TEST_PASSWORD });
    const taken = await ask(token, { newEmail: 'occupee@exemple.fr', currentPassword: DEFAULT_TEST_PASSWORD });
    expect(taken.statusCode).toBe(free.statusCode);
    expect(Object.keys(taken.headers).sort()).toEqual(Object.keys(free.headers).sort());
    expect(taken.json()).toEqual({ message: emailChangeRequestedMessage('occupee@exemple.fr') });
    const [told] = await mailsTo('occupee@exemple.fr');
    expect(told!.subject).toBe('Votre adresse e-mail a été proposée pour un autre compte FlotteAssur');
    expect(told!.text).not.toMatch(/emailToken/);
    expect(told!.text).not.toContain('curieux');
    // The taken request also spent the earlier link (one live link at a time).
    const live = await t.seed((tx) => tx.select().from(emailChangeTokens).where(sql`${emailChangeTokens.userUuid} = ${own.uuid} and ${emailChangeTokens.usedAt} is null`));
    expect(live).toEqual([]);
    // The owner of the account was told both times.
    expect(await mailsTo('curieux@exemple.fr')).toHaveLength(2);
  });

  it('a link expires after 24 hours, is spent by a newer request, works for its account only, and fails if the address was taken meanwhile', async () => {
    const own = await newUser('patient@exemple.fr');
    const stranger = await newUser('etranger@exemple.fr');
    const token = await tokenOf(own.email);
    const strangerToken = await tokenOf(stranger.email);

    await ask(token, { newEmail: 'premiere@exemple.fr', currentPassword: DEFAULT_TEST_PASSWORD });
    const first = await linkSentTo('premiere@exemple.fr');
    await ask(token, { newEmail: 'seconde@exemple.fr', currentPassword: DEFAULT_TEST_PASSWORD });
    const second = await linkSentTo('seconde@exemple.fr');
    expect((await confirm(token, first)).statusCode).toBe(400);

    // Another account's session cannot use it (and does not spend it).
    const foreign = await confirm(strangerToken, second);
    expect(foreign.statusCode).toBe(400);
    expect(foreign.json().message).toBe(EMAIL_CHANGE_LINK_INVALID_MESSAGE);

    await t.seed((tx) => tx.update(emailChangeTokens).set({ expiresAt: new Date(Date.now() - 1000) }).where(eq(emailChangeTokens.userUuid, own.uuid)));
    expect((await confirm(token, second)).statusCode).toBe(400);

    await ask(token, { newEmail: 'disputee@exemple.fr', currentPassword: DEFAULT_TEST_PASSWORD });
    const third = await linkSentTo('disputee@exemple.fr');
    await newUser('disputee@exemple.fr');
    const conflict = await confirm(token, third);
    expect(conflict.statusCode).toBe(409);
    expect((await t.seed((tx) => tx.select({ email: users.email }).from(users).where(eq(users.uuid, own.uuid))))[0]!.email).toBe('patient@exemple.fr');
    // The claim rolled back with the refusal: nothing was written.
    expect((await t.seed((tx) => tx.select().from(emailChangeTokens).where(sql`${emailChangeTokens.userUuid} = ${own.uuid} and ${emailChangeTokens.usedAt} is null`))).length).toBe(1);
    const malformed = await confirm(token, 'pas un jeton !');
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json().details[0].message).toBe(EMAIL_CHANGE_LINK_INVALID_MESSAGE);
    expect((await t.app.inject({ method: 'POST', url: '/api/user/email/confirm', payload: { token: third } })).statusCode).toBe(401);
  });
});

describe('organizations of the account', () => {
  it('lists the user’s organizations with the role in each and the current one; nobody else’s', async () => {
    const { admin, user } = await t.seed(async (tx) => {
      const a = await createOrganization(tx, { title: 'Transports Alpha' });
      const b = await createOrganization(tx, { title: 'Bâtiment Bêta' });
      await createOrganization(tx, { title: 'Sans moi' });
      const admin = await createUser(tx, { email: 'orgs.admin@exemple.fr' });
      const user = await createUser(tx, { email: 'orgs.user@exemple.fr' });
      // Administrator of one, plain member of the other: the role is each link's.
      await linkUser(tx, a.uuid, admin.uuid, 'ADMIN');
      await linkUser(tx, b.uuid, admin.uuid, 'USER');
      await linkUser(tx, a.uuid, user.uuid);
      return { admin, user };
    });
    const asAdmin = await t.as(await tokenOf(admin.email), { method: 'GET', url: '/api/user/organizations' });
    expect(asAdmin.statusCode).toBe(200);
    const data = asAdmin.json().data as { title: string; role: string; current: boolean }[];
    expect(data.map(({ title, role }) => ({ title, role }))).toEqual([
      { title: 'Bâtiment Bêta', role: 'USER' },
      { title: 'Transports Alpha', role: 'ADMIN' },
    ]);
    expect(data.filter((org) => org.current)).toHaveLength(1);
    const asUser = await t.as(await tokenOf(user.email), { method: 'GET', url: '/api/user/organizations' });
    expect(asUser.json().data).toEqual([expect.objectContaining({ title: 'Transports Alpha', role: 'USER', current: true })]);
    expect((await t.app.inject({ method: 'GET', url: '/api/user/organizations' })).statusCode).toBe(401);
  });
});

describe('account deletion', () => {
  const remove = (token: string, uuid: string, body: object) => t.as(token, { method: 'DELETE', url: `/api/user/${uuid}`, payload: body, remoteAddress: nextIp() });
  const exists = async (uuid: string) => (await t.seed((tx) => tx.select({ uuid: users.uuid }).from(users).where(eq(users.uuid, uuid)))).length === 1;
  const OK = { currentPassword: DEFAULT_TEST_PASSWORD, confirmation: 'SUPPRIMER' };

  it('refuses a wrong password, a missing confirmation, and another user (404), in French, deleting nothing', async () => {
    const own = await newUser('suppr.refus@exemple.fr');
    const other = await newUser('suppr.autre@exemple.fr');
    const token = await tokenOf(own.email);
    const wrong = await remove(token, own.uuid, { ...OK, currentPassword: 'pas le bon' });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().details).toEqual([{ path: 'currentPassword', message: 'Mot de passe actuel incorrect' }]);
    const unconfirmed = await remove(token, own.uuid, { ...OK, confirmation: 'supprimer svp' });
    expect(unconfirmed.statusCode).toBe(400);
    expect(unconfirmed.json().details).toContainEqual({ path: 'confirmation', message: 'Tapez SUPPRIMER pour confirmer' });
    const foreign = await remove(token, other.uuid, OK);
    expect(foreign.statusCode).toBe(404);
    expect(await exists(own.uuid)).toBe(true);
    expect(await exists(other.uuid)).toBe(true);
  });

  it('refuses the last ADMIN of an organization (409 naming it), and lets them go once another ADMIN is there', async () => {
    const { org, admin, driverUuid } = await t.seed(async (tx) => {
      const org = await createOrganization(tx, { title: 'Transports Durand' });
      const admin = await createUser(tx, { email: 'suppr.dernier@exemple.fr' });
      await linkUser(tx, org.uuid, admin.uuid, 'ADMIN');
      const [driver] = await createDrivers(tx, org.uuid, [{ firstName: 'Léon', lastName: 'Durand' }]);
      return { org, admin, driverUuid: driver!.uuid };
    });
    const token = await tokenOf(admin.email);
    const refused = await remove(token, admin.uuid, OK);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toBe('Vous êtes le seul administrateur de « Transports Durand » : nommez d’abord un autre administrateur, puis supprimez votre compte.');
    expect(await exists(admin.uuid)).toBe(true);
    expect((await t.as(token, { method: 'GET', url: '/api/auth/me' })).statusCode).toBe(200);

    const peer = await t.seed(async (tx) => {
      const peer = await createUser(tx, { email: 'suppr.relais@exemple.fr' });
      await linkUser(tx, org.uuid, peer.uuid, 'ADMIN');
      return peer;
    });
    const gone = await remove(token, admin.uuid, OK);
    expect(gone.statusCode, gone.body).toBe(204);
    expect(gone.cookies.find((c) => c.name === REFRESH_COOKIE)).toMatchObject({ value: '' });
    expect(await exists(admin.uuid)).toBe(false);
    // Personal data gone (sessions, links); the organization's data stays.
    expect(await t.seed((tx) => tx.select().from(refreshTokens).where(eq(refreshTokens.userUuid, admin.uuid)))).toEqual([]);
    expect(await t.seed((tx) => tx.select().from(organizationUsers).where(eq(organizationUsers.userUuid, admin.uuid)))).toEqual([]);
    expect(await t.seed((tx) => tx.select({ uuid: organizations.uuid }).from(organizations).where(eq(organizations.uuid, org.uuid)))).toHaveLength(1);
    expect(await t.seed((tx) => tx.select({ uuid: drivers.uuid }).from(drivers).where(eq(drivers.uuid, driverUuid)))).toHaveLength(1);
    expect(await exists(peer.uuid)).toBe(true);
    expect((await t.as(token, { method: 'GET', url: '/api/auth/me' })).statusCode).toBe(401);
    expect((await signIn(admin.email)).statusCode).toBe(401);
  });

  it('names every organization of which the user is the last ADMIN', async () => {
    const admin = await t.seed(async (tx) => {
      const admin = await createUser(tx, { email: 'suppr.plusieurs@exemple.fr' });
      for (const title of ['Garage Martin', 'Ambulances Petit']) await linkUser(tx, (await createOrganization(tx, { title })).uuid, admin.uuid, 'ADMIN');
      return admin;
    });
    const refused = await remove(await tokenOf(admin.email), admin.uuid, OK);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toBe(
      'Vous êtes le seul administrateur de « Ambulances Petit » et « Garage Martin » : nommez d’abord un autre administrateur dans chacune, puis supprimez votre compte.',
    );
  });

  it.each([['USER'], ['SUPERADMIN'], ['ROOT']])('deletes a %s who administers no organization alone, with its avatar', async (role) => {
    const own = await t.seed(async (tx) => {
      const own = await createUser(tx, { email: `suppr.${role.toLowerCase()}@exemple.fr`, roles: [role as 'USER'] });
      await linkUser(tx, (await createOrganization(tx)).uuid, own.uuid);
      return own;
    });
    const token = await tokenOf(own.email);
    const sent = await t.as(token, { method: 'POST', url: '/api/user/avatar', ...upload(await picture(32, 32)) });
    expect(sent.statusCode, sent.body).toBe(200);
    expect(avatarFiles(own.uuid)).toHaveLength(1);
    expect((await remove(token, own.uuid, OK)).statusCode).toBe(204);
    expect(await exists(own.uuid)).toBe(false);
    expect(avatarFiles(own.uuid)).toHaveLength(0);
  });
});
