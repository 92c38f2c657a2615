import { eq } from 'drizzle-orm';
import type { InjectOptions } from 'fastify';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { userTotp } from '../../db/schema/users.js';
import { createOrganization, linkUser } from '../../seed/factories.js';
import { environmentHelpers, type EnvironmentFixtures, expectInvalid, expectNotFound, openEnvironments, type Who } from '../../../test/fixtures/environments.js';
import { multipartFile } from '../../../test/multipart.js';
import type { TestContext } from '../../../test/test-app.js';

// The calls of /superadmin/settings (decision 040): the environment's fields a superadmin edits,
// the two-factor requirement, the digest opt-out, and the public card its clients see in the
// help dialog. Every test that writes builds its own environment and users.
let t: TestContext;
let f: EnvironmentFixtures;
let tokens: Record<string, string>;
const { call, readEnvironment, freshUser, freshEnvironment } = environmentHelpers(
  () => t,
  () => tokens,
);

beforeAll(async () => {
  ({ t, f, tokens } = await openEnvironments(['root', 'super-a', 'super-b', 'admin-a', 'user-a']));
});
afterAll(() => t.close());

const patch = (who: Who | string, uuid: string, payload: unknown) =>
  call(who, { method: 'PATCH', url: `/api/environment/${uuid}`, payload: payload as InjectOptions['payload'] });

/** A broker's environment with its superadmin and one client organization's plain user. */
async function brokerWithClient() {
  const environment = await freshEnvironment();
  const superadmin = await freshUser(['SUPERADMIN'], environment.uuid);
  const client = await freshUser(['USER']);
  const link = await t.seed(async (tx) => {
    const organization = await createOrganization(tx, { title: 'Transports Clients', environmentUuid: environment.uuid });
    return linkUser(tx, organization.uuid, client.uuid);
  });
  // The client works in that organization, as after its first sign-in.
  const chosen = await call(client.token, { method: 'PATCH', url: `/api/user/${client.uuid}`, payload: { currentOrganizationUser: link.uuid } });
  expect(chosen.statusCode).toBe(200);
  return { environment, superadmin, client };
}

const enableTotp = (userUuid: string) => t.seed((tx) => tx.insert(userTotp).values({ userUuid, secret: 'v1.essai', enabledAt: new Date() }));

describe('PATCH /api/environment/:uuid from the settings page', () => {
  it('saves the title, the referent e-mail and the booking link, which the clients then read', async () => {
    const { environment, superadmin, client } = await brokerWithClient();
    const response = await patch(superadmin.token, environment.uuid, {
      title: '  Courtage Méridien  ',
      refererEmail: 'Contact@Meridien.FR',
      bookingUrl: 'https://agenda.meridien.fr/rdv-30-minutes?source=flotte',
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({
      title: 'Courtage Méridien',
      refererEmail: 'contact@meridien.fr',
      bookingUrl: 'https://agenda.meridien.fr/rdv-30-minutes?source=flotte',
    });
    expect(await readEnvironment(environment.uuid)).toMatchObject({ title: 'Courtage Méridien', refererEmail: 'contact@meridien.fr' });
    // The help dialog of a client reads GET /api/environment/current.
    const seen = await call(client.token, { method: 'GET', url: '/api/environment/current' });
    expect(seen.statusCode).toBe(200);
    expect(seen.json()).toMatchObject({ uuid: environment.uuid, title: 'Courtage Méridien', bookingUrl: 'https://agenda.meridien.fr/rdv-30-minutes?source=flotte' });
    // Emptied, the booking link and the e-mail read as null.
    const emptied = await patch(superadmin.token, environment.uuid, { bookingUrl: '', refererEmail: '' });
    expect(emptied.json()).toMatchObject({ bookingUrl: null, refererEmail: null });
    expect(await readEnvironment(environment.uuid)).toMatchObject({ bookingUrl: null, refererEmail: null });
  });

  it.each([
    [{ bookingUrl: 'http://agenda.meridien.fr' }, 'bookingUrl', 'une adresse https://… est attendue'],
    [{ bookingUrl: 'javascript:alert(1)' }, 'bookingUrl', 'une adresse https://… est attendue'],
    [{ bookingUrl: 'https://localhost/agenda' }, 'bookingUrl', 'une adresse https://… est attendue'],
    [{ bookingUrl: 'agenda.meridien.fr' }, 'bookingUrl', 'une adresse https://… est attendue'],
    [{ bookingUrl: `https://agenda.meridien.fr/${'a'.repeat(2100)}` }, 'bookingUrl', 'caractères maximum'],
    [{ refererEmail: 'contact@' }, 'refererEmail', 'Adresse e-mail invalide'],
    [{ title: '   ' }, 'title', "Le nom de l'espace est obligatoire"],
  ])('refuses %j with a French message and writes nothing', async (payload, path, message) => {
    const { environment, superadmin } = await brokerWithClient();
    const before = await readEnvironment(environment.uuid);
    expectInvalid(await patch(superadmin.token, environment.uuid, payload), path, message);
    expect(await readEnvironment(environment.uuid)).toEqual(before);
  });

  it('answers 403 to an ADMIN or a user of one of its client organizations, and writes nothing', async () => {
    const before = await readEnvironment(f.envA.uuid);
    for (const who of ['admin-a', 'user-a'] as const) {
      const response = await patch(who, f.envA.uuid, { title: 'Piraté', bookingUrl: 'https://pirate.exemple.fr' });
      expect(response.statusCode).toBe(403);
      expect(response.json().message).toBe("Seul un superadmin de l'environnement peut modifier ses paramètres");
    }
    expect(await readEnvironment(f.envA.uuid)).toEqual(before);
  });

  it('answers 404 to the superadmin of another environment, and writes nothing', async () => {
    const { environment } = await brokerWithClient();
    const before = await readEnvironment(environment.uuid);
    expectNotFound(await patch('super-a', environment.uuid, { bookingUrl: 'https://pirate.exemple.fr' }));
    expectNotFound(await patch('super-b', f.envA.uuid, { requireSuperadminTotp: true }));
    expect(await readEnvironment(environment.uuid)).toEqual(before);
  });

  it('refuses the billing fields to a superadmin even beside allowed ones', async () => {
    const { environment, superadmin } = await brokerWithClient();
    const before = await readEnvironment(environment.uuid);
    const response = await patch(superadmin.token, environment.uuid, { bookingUrl: 'https://agenda.exemple.fr', freeOrganizations: 99 });
    expect(response.statusCode).toBe(403);
    expect(await readEnvironment(environment.uuid)).toEqual(before);
  });
});

describe('requiring two-factor sign-in of the superadmins', () => {
  it('is refused (409) to a superadmin who does not sign in with a code itself, and nothing changes', async () => {
    const { environment, superadmin } = await brokerWithClient();
    const before = await readEnvironment(environment.uuid);
    const response = await patch(superadmin.token, environment.uuid, { requireSuperadminTotp: true, title: 'Avec 2FA' });
    expect(response.statusCode).toBe(409);
    expect(response.json().message).toMatch(/^Activez d’abord la double authentification sur votre propre compte/);
    expect(await readEnvironment(environment.uuid)).toEqual(before);
  });

  it('a pending setup does not count; once enabled, the superadmin may require it, and turn it off again', async () => {
    const { environment, superadmin } = await brokerWithClient();
    await t.seed((tx) => tx.insert(userTotp).values({ userUuid: superadmin.uuid, secret: 'v1.essai' }));
    expect((await patch(superadmin.token, environment.uuid, { requireSuperadminTotp: true })).statusCode).toBe(409);
    await t.seed((tx) => tx.delete(userTotp).where(eq(userTotp.userUuid, superadmin.uuid)));
    await enableTotp(superadmin.uuid);
    const on = await patch(superadmin.token, environment.uuid, { requireSuperadminTotp: true });
    expect(on.statusCode).toBe(200);
    expect((await readEnvironment(environment.uuid))!.requireSuperadminTotp).toBe(true);
    // Saving it again as on is harmless; turning it off needs no code.
    expect((await patch(superadmin.token, environment.uuid, { requireSuperadminTotp: true })).statusCode).toBe(200);
    expect((await patch(superadmin.token, environment.uuid, { requireSuperadminTotp: false })).json().requireSuperadminTotp).toBe(false);
  });

  it('ROOT may require it without a code of its own', async () => {
    const { environment } = await brokerWithClient();
    expect((await patch('root', environment.uuid, { requireSuperadminTotp: true })).json().requireSuperadminTotp).toBe(true);
  });

  it('answers 403 to an ADMIN or a user of a client organization', async () => {
    for (const who of ['admin-a', 'user-a'] as const) {
      expect((await patch(who, f.envA.uuid, { requireSuperadminTotp: true })).statusCode).toBe(403);
    }
    expect((await readEnvironment(f.envA.uuid))!.requireSuperadminTotp).toBe(false);
  });
});

describe('the daily digest opt-out from the settings page', () => {
  it('is the calling superadmin’s own; an ADMIN or a user gets 403, another environment’s superadmin 404, ROOT not attached 404', async () => {
    const { environment, superadmin } = await brokerWithClient();
    const url = `/api/environment/${environment.uuid}/alert-digest`;
    expect((await call(superadmin.token, { method: 'PUT', url, payload: { enabled: false } })).json()).toEqual({ enabled: false });
    expect((await call(superadmin.token, { method: 'GET', url })).json()).toEqual({ enabled: false });
    for (const who of ['admin-a', 'user-a'] as const) {
      expect((await call(who, { method: 'GET', url: `/api/environment/${f.envA.uuid}/alert-digest` })).statusCode).toBe(403);
      expect((await call(who, { method: 'PUT', url: `/api/environment/${f.envA.uuid}/alert-digest`, payload: { enabled: false } })).statusCode).toBe(403);
    }
    expect((await call('super-a', { method: 'GET', url: `/api/environment/${f.envA.uuid}/alert-digest` })).json()).toEqual({ enabled: true });
    expect((await call('super-b', { method: 'PUT', url, payload: { enabled: true } })).statusCode).toBe(404);
    expect((await call('root', { method: 'PUT', url, payload: { enabled: true } })).statusCode).toBe(404);
    expect((await call(superadmin.token, { method: 'GET', url })).json()).toEqual({ enabled: false });
  });
});

describe('the public card, edited through the account calls', () => {
  it('is what the clients of the environment read in the help dialog: names, description, phone, avatar', async () => {
    const { environment, superadmin, client } = await brokerWithClient();
    const saved = await call(superadmin.token, {
      method: 'PATCH',
      url: `/api/user/${superadmin.uuid}`,
      payload: { firstName: 'Hélène', lastName: 'Garnier', description: 'Votre courtière flotte, du lundi au vendredi.', phone: '06 12 34 56 78' },
    });
    expect(saved.statusCode).toBe(200);
    const image = await sharp({ create: { width: 300, height: 300, channels: 3, background: { r: 30, g: 90, b: 160 } } }).png().toBuffer();
    const uploaded = await call(superadmin.token, { method: 'POST', url: '/api/user/avatar', ...multipartFile('photo.png', image) });
    expect(uploaded.statusCode).toBe(200);
    const card = await call(client.token, { method: 'GET', url: `/api/environment-user/${environment.uuid}/superadmin` });
    expect(card.statusCode).toBe(200);
    expect(card.json()).toEqual({
      avatar: { url: uploaded.json().avatar.url },
      firstName: 'Hélène',
      lastName: 'Garnier',
      description: 'Votre courtière flotte, du lundi au vendredi.',
      phone: '+33612345678',
    });
    // Another broker's superadmin does not reach it.
    expectNotFound(await call('super-b', { method: 'GET', url: `/api/environment-user/${environment.uuid}/superadmin` }));
  });

  it('refuses a bad phone in French and keeps the card as it was', async () => {
    const { environment, superadmin, client } = await brokerWithClient();
    const before = (await call(client.token, { method: 'GET', url: `/api/environment-user/${environment.uuid}/superadmin` })).json();
    const response = await call(superadmin.token, { method: 'PATCH', url: `/api/user/${superadmin.uuid}`, payload: { phone: '12', description: 'Changée' } });
    expect(response.statusCode).toBe(400);
    expect(response.json().details[0]).toMatchObject({ path: 'phone' });
    expect((await call(client.token, { method: 'GET', url: `/api/environment-user/${environment.uuid}/superadmin` })).json()).toEqual(before);
  });
});
