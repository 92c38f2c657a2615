import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { LOGO_MAX_BYTES } from '@flotte/contract';
import { eq } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { environments } from '../../db/schema/environments.js';
import { organizations } from '../../db/schema/organizations.js';
import { environmentHelpers, type EnvironmentFixtures, openEnvironments, type Who } from '../../../test/fixtures/environments.js';
import { multipartFile } from '../../../test/multipart.js';
import type { TestContext } from '../../../test/test-app.js';

/**
 * Logos of organizations and environments (decision 042): the avatar's machinery with a box of
 * 512 × 256 px, ratio and transparency kept. Every role on both kinds, bad files, other tenants.
 */
let t: TestContext;
let f: EnvironmentFixtures;
let tokens: Record<string, string>;
beforeAll(async () => {
  ({ t, f, tokens } = await openEnvironments());
});
afterAll(() => t.close());
const { call } = environmentHelpers(
  () => t,
  () => tokens,
);

const upload = (content: Buffer) => multipartFile('logo.png', content);
/** A wide logo on a transparent background: a red band across the middle. */
const wideLogo = async (width = 1200, height = 300) =>
  sharp({ create: { width, height, channels: 4, background: { r: 0, g: 0, b: 0, alpha: 0 } } })
    .composite([{ input: await sharp({ create: { width, height: Math.round(height / 3), channels: 4, background: { r: 200, g: 30, b: 30, alpha: 1 } } }).png().toBuffer(), top: Math.round(height / 3), left: 0 }])
    .png()
    .toBuffer();
const picture = (width: number, height: number) => sharp({ create: { width, height, channels: 3, background: { r: 20, g: 90, b: 160 } } }).png().toBuffer();

const filesIn = (folder: string) => {
  const full = path.join(t.dataDir, 'media', folder);
  return existsSync(full) ? readdirSync(full) : [];
};
const organizationLogoUrl = async (uuid: string) => (await t.seed((tx) => tx.select({ url: organizations.avatarUrl }).from(organizations).where(eq(organizations.uuid, uuid))))[0]!.url;
const environmentLogoUrl = async (uuid: string) => (await t.seed((tx) => tx.select({ url: environments.logoUrl }).from(environments).where(eq(environments.uuid, uuid))))[0]!.url;

const postOrganizationLogo = async (who: Who | null, organizationUuid: string, image?: Buffer) =>
  call(who, { method: 'POST', url: `/api/organization/${organizationUuid}/logo`, ...upload(image ?? (await picture(40, 20))) });
const postEnvironmentLogo = async (who: Who | null, environmentUuid: string, image?: Buffer) =>
  call(who, { method: 'POST', url: `/api/environment/${environmentUuid}/logo`, ...upload(image ?? (await picture(40, 20))) });

describe('organization logo', () => {
  it('keeps a WebP inside 512 × 256 px, ratio and transparency kept, at a versioned public URL; replaced; removed', async () => {
    const sent = await postOrganizationLogo('admin-a', f.orgA1.uuid, await wideLogo());
    expect(sent.statusCode, sent.body).toBe(200);
    expect(sent.json()).toMatchObject({ uuid: f.orgA1.uuid, title: 'Étoile du Nord', environment: { uuid: f.envA.uuid } });
    const url = sent.json().avatar.url as string;
    expect(url).toMatch(new RegExp(`^/api/organization/${f.orgA1.uuid}/logo/[\\w-]{16}$`));

    // No bearer token: an <img> sends none.
    const image = await t.app.inject({ method: 'GET', url });
    expect(image.statusCode).toBe(200);
    expect(image.headers['content-type']).toBe('image/webp');
    expect(image.headers['cache-control']).toBe('private, max-age=31536000, immutable');
    expect(image.headers['x-content-type-options']).toBe('nosniff');
    // 1200 × 300 (4:1) fits the box by its width: 512 × 128, its alpha channel kept.
    expect(await sharp(image.rawPayload).metadata()).toMatchObject({ format: 'webp', width: 512, height: 128, hasAlpha: true });
    const corner = await sharp(image.rawPayload).extract({ left: 0, top: 0, width: 1, height: 1 }).raw().toBuffer();
    expect(corner[3]).toBe(0);

    // Shown where the organization is: the member's list of organizations.
    const listed = await call('user-a', { method: 'GET', url: '/api/organization' });
    expect(listed.json().data.find((o: { uuid: string }) => o.uuid === f.orgA1.uuid).avatar).toEqual({ url });

    // A tall one fits by its height; a small one is never enlarged.
    const tall = await postOrganizationLogo('admin-a', f.orgA1.uuid, await picture(300, 600));
    expect(tall.statusCode).toBe(200);
    expect((await t.app.inject({ method: 'GET', url })).statusCode).toBe(404);
    const tallImage = await t.app.inject({ method: 'GET', url: tall.json().avatar.url });
    expect(await sharp(tallImage.rawPayload).metadata()).toMatchObject({ width: 128, height: 256 });
    const small = await postOrganizationLogo('admin-a', f.orgA1.uuid, await picture(120, 40));
    expect(await sharp((await t.app.inject({ method: 'GET', url: small.json().avatar.url })).rawPayload).metadata()).toMatchObject({ width: 120, height: 40 });
    expect(filesIn(`logos/organizations/${f.orgA1.uuid}`)).toHaveLength(1);

    const removed = await call('admin-a', { method: 'DELETE', url: `/api/organization/${f.orgA1.uuid}/logo` });
    expect(removed.statusCode).toBe(200);
    expect(removed.json().avatar).toBeNull();
    expect((await t.app.inject({ method: 'GET', url: small.json().avatar.url })).statusCode).toBe(404);
    expect(filesIn(`logos/organizations/${f.orgA1.uuid}`)).toHaveLength(0);
  });

  it.each([['super-a'], ['root']] as const)('lets %s change the logo of a client organization of its environment', async (who) => {
    const sent = await postOrganizationLogo(who, f.orgA2.uuid);
    expect(sent.statusCode, sent.body).toBe(200);
    expect(await organizationLogoUrl(f.orgA2.uuid)).toBe(sent.json().avatar.url);
    const removed = await call(who, { method: 'DELETE', url: `/api/organization/${f.orgA2.uuid}/logo` });
    expect(removed.statusCode).toBe(200);
    expect(await organizationLogoUrl(f.orgA2.uuid)).toBeNull();
  });

  it('refuses a plain member (403), another organization or environment (404, as an unknown one) and no token (401), writing nothing', async () => {
    const user = await postOrganizationLogo('user-a', f.orgA1.uuid);
    expect(user.statusCode).toBe(403);
    expect(user.json().message).toBe('Seul un administrateur de l’organisation peut changer son logo');
    expect((await call('user-a', { method: 'DELETE', url: `/api/organization/${f.orgA1.uuid}/logo` })).statusCode).toBe(403);
    for (const [who, organization] of [
      ['admin-a', f.orgB1.uuid],
      ['super-b', f.orgA1.uuid],
      ['user-b', f.orgA1.uuid],
      ['admin-a', '00000000-0000-4000-8000-000000000000'],
    ] as const) {
      const response = await postOrganizationLogo(who, organization);
      expect(response.statusCode, `${who} → ${organization}`).toBe(404);
      expect(response.json().message).toBe('Organisation introuvable');
      expect((await call(who, { method: 'DELETE', url: `/api/organization/${organization}/logo` })).statusCode).toBe(404);
    }
    expect((await postOrganizationLogo(null, f.orgA1.uuid)).statusCode).toBe(401);
    expect(await organizationLogoUrl(f.orgB1.uuid)).toBeNull();
    expect(filesIn(`logos/organizations/${f.orgB1.uuid}`)).toHaveLength(0);
    expect(filesIn('tmp')).toHaveLength(0);
  });

  it('refuses what is not an image (415), a file too large (413) and a missing file (400), in French, storing nothing', async () => {
    const before = await organizationLogoUrl(f.orgB2.uuid);
    const text = await postOrganizationLogo('super-b', f.orgB2.uuid, Buffer.from('pas une image du tout'));
    expect(text.statusCode).toBe(415);
    expect(text.json().message).toBe('Ce fichier n’est pas une image lisible : choisissez une photo JPEG, PNG ou WebP.');
    const gif = await postOrganizationLogo('super-b', f.orgB2.uuid, await sharp(await picture(10, 10)).gif().toBuffer());
    expect(gif.statusCode).toBe(415);
    const big = await postOrganizationLogo('super-b', f.orgB2.uuid, Buffer.alloc(LOGO_MAX_BYTES + 10, 1));
    expect(big.statusCode).toBe(413);
    expect(big.json().message).toBe('L’image dépasse 5 Mo : choisissez-en une plus légère.');
    const none = await call('super-b', { method: 'POST', url: `/api/organization/${f.orgB2.uuid}/logo`, payload: { file: 'x' } });
    expect(none.statusCode).toBe(400);
    expect(none.json().details).toEqual([{ path: 'file', message: 'Joignez une image (champ multipart « file »).' }]);
    expect(await organizationLogoUrl(f.orgB2.uuid)).toBe(before);
    expect(filesIn(`logos/organizations/${f.orgB2.uuid}`)).toHaveLength(0);
  });

  it('serves only the logo in force: a wrong version is a 404, a malformed one a 400', async () => {
    const url = (await postOrganizationLogo('super-b', f.orgB1.uuid)).json().avatar.url as string;
    expect((await t.app.inject({ method: 'GET', url: `/api/organization/${f.orgB1.uuid}/logo/AAAAAAAAAAAAAAAA` })).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: url.replace(f.orgB1.uuid, f.orgB2.uuid) })).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: `/api/organization/${f.orgB1.uuid}/logo/..%2F..%2Fx` })).statusCode).toBe(400);
    expect((await t.app.inject({ method: 'GET', url })).statusCode).toBe(200);
  });
});

describe('environment logo', () => {
  it('lets its superadmin set it, returned with the environment to its clients; replaced; removed', async () => {
    const sent = await postEnvironmentLogo('super-a', f.envA.uuid, await wideLogo(600, 600));
    expect(sent.statusCode, sent.body).toBe(200);
    const url = sent.json().logo.url as string;
    expect(url).toMatch(new RegExp(`^/api/environment/${f.envA.uuid}/logo/[\\w-]{16}$`));
    const image = await t.app.inject({ method: 'GET', url });
    expect(image.statusCode).toBe(200);
    expect(await sharp(image.rawPayload).metadata()).toMatchObject({ format: 'webp', width: 256, height: 256, hasAlpha: true });
    // Its clients read it with their environment.
    expect((await call('user-a', { method: 'GET', url: '/api/environment/current' })).json().logo).toEqual({ url });
    expect((await call('super-a', { method: 'GET', url: `/api/environment/${f.envA.uuid}` })).json().logo).toEqual({ url });

    const again = await postEnvironmentLogo('super-a', f.envA.uuid);
    expect((await t.app.inject({ method: 'GET', url })).statusCode).toBe(404);
    expect(filesIn(`logos/environments/${f.envA.uuid}`)).toHaveLength(1);
    const removed = await call('super-a', { method: 'DELETE', url: `/api/environment/${f.envA.uuid}/logo` });
    expect(removed.statusCode).toBe(200);
    expect(removed.json().logo).toBeNull();
    expect((await t.app.inject({ method: 'GET', url: again.json().logo.url })).statusCode).toBe(404);
    expect(filesIn(`logos/environments/${f.envA.uuid}`)).toHaveLength(0);
  });

  it('lets ROOT set any environment’s logo', async () => {
    const sent = await postEnvironmentLogo('root', f.envC.uuid);
    expect(sent.statusCode, sent.body).toBe(200);
    expect(await environmentLogoUrl(f.envC.uuid)).toBe(sent.json().logo.url);
    expect((await call('root', { method: 'DELETE', url: `/api/environment/${f.envC.uuid}/logo` })).statusCode).toBe(200);
    expect(await environmentLogoUrl(f.envC.uuid)).toBeNull();
  });

  it('refuses another environment’s superadmin, an ADMIN or USER of a client (404) and no token (401), writing nothing', async () => {
    for (const who of ['super-b', 'admin-a', 'user-a'] as const) {
      const response = await postEnvironmentLogo(who, f.envA.uuid);
      expect(response.statusCode, who).toBe(404);
      expect(response.json().message).toBe('Environnement introuvable');
      expect((await call(who, { method: 'DELETE', url: `/api/environment/${f.envA.uuid}/logo` })).statusCode).toBe(404);
    }
    expect((await postEnvironmentLogo('root', '00000000-0000-4000-8000-000000000000')).statusCode).toBe(404);
    expect((await postEnvironmentLogo(null, f.envA.uuid)).statusCode).toBe(401);
    expect(await environmentLogoUrl(f.envA.uuid)).toBeNull();
    expect(filesIn(`logos/environments/${f.envA.uuid}`)).toHaveLength(0);
    expect(filesIn('logos/environments/00000000-0000-4000-8000-000000000000')).toHaveLength(0);
  });

  it('refuses bad files in French, storing nothing', async () => {
    const text = await postEnvironmentLogo('super-b', f.envB.uuid, Buffer.from('%PDF-1.4 pas une image'));
    expect(text.statusCode).toBe(415);
    expect(text.json().message).toBe('Ce fichier n’est pas une image lisible : choisissez une photo JPEG, PNG ou WebP.');
    const big = await postEnvironmentLogo('super-b', f.envB.uuid, Buffer.alloc(LOGO_MAX_BYTES + 10, 1));
    expect(big.statusCode).toBe(413);
    expect(big.json().message).toBe('L’image dépasse 5 Mo : choisissez-en une plus légère.');
    expect(await environmentLogoUrl(f.envB.uuid)).toBeNull();
    expect(filesIn(`logos/environments/${f.envB.uuid}`)).toHaveLength(0);
  });
});
