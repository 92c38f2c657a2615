import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { organizationUsers } from '../db/schema/organizations.js';
import { createDrivers, createOrganization, createUser, linkUser } from '../seed/factories.js';
import { createTestApp, type TestContext } from '../../test/test-app.js';

/**
 * The caller's context (roles, current organization) is kept a few seconds per user
 * (decision 008): a change made by this server is seen at once, a change made elsewhere once
 * the context has expired.
 */

type Fixture = { alpha: { uuid: string }; beta: { uuid: string }; user: { uuid: string }; alphaLink: { uuid: string }; betaLink: { uuid: string } };

/** Two organizations and a member of both, `email`: every test builds its own, and changes only those. */
async function seedTwoOrganizations(t: TestContext, email: string): Promise<Fixture> {
  return t.seed(async (tx) => {
    const alpha = await createOrganization(tx, { title: 'Alpha Transports' });
    const beta = await createOrganization(tx, { title: 'Bêta BTP' });
    // Alpha comes first in French order: the user lands there at login.
    const user = await createUser(tx, { email });
    const alphaLink = await linkUser(tx, alpha.uuid, user.uuid);
    const betaLink = await linkUser(tx, beta.uuid, user.uuid);
    await createDrivers(tx, alpha.uuid, [{ lastName: 'Alpha' }]);
    await createDrivers(tx, beta.uuid, [{ lastName: 'Bêta' }]);
    return { alpha, beta, user, alphaLink, betaLink };
  });
}

const lastNames = async (t: TestContext, token: string) => {
  const response = await t.as(token, { method: 'GET', url: '/api/driver' });
  return response.statusCode === 200 ? response.json().data.map((d: { lastName: string }) => d.lastName) : response.json().message;
};

describe('the caller\u2019s context, kept a few seconds', () => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestApp({ AUTH_CONTEXT_TTL_MS: '1000' });
  });
  afterAll(() => t.close());

  it('follows a switch of organization at once', async () => {
    const f = await seedTwoOrganizations(t, 'bascule@alpha.fr');
    const token = await t.login('bascule@alpha.fr');
    expect(await lastNames(t, token)).toEqual(['Alpha']);
    const switched = await t.as(token, { method: 'PATCH', url: `/api/user/${f.user.uuid}`, payload: { currentOrganizationUser: f.betaLink.uuid } });
    expect(switched.statusCode).toBe(200);
    expect(await lastNames(t, token)).toEqual(['Bêta']);
    await t.as(token, { method: 'PATCH', url: `/api/user/${f.user.uuid}`, payload: { currentOrganizationUser: f.alphaLink.uuid } });
    expect(await lastNames(t, token)).toEqual(['Alpha']);
  });

  it('sees a membership removed by another server once the context has expired', async () => {
    const f = await seedTwoOrganizations(t, 'retire@alpha.fr');
    const token = await t.login('retire@alpha.fr');
    expect(await lastNames(t, token)).toEqual(['Alpha']);
    // Another server (here: straight to the database) removes the user from Alpha.
    await t.seed((tx) => tx.delete(organizationUsers).where(eq(organizationUsers.uuid, f.alphaLink.uuid)));
    await new Promise((resolve) => setTimeout(resolve, 1100));
    expect(await lastNames(t, token)).toBe("Sélectionnez d'abord une organisation");
  });
});

describe('with AUTH_CONTEXT_TTL_MS=0', () => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestApp({ AUTH_CONTEXT_TTL_MS: '0' });
  });
  afterAll(() => t.close());

  it('reads the context on every request', async () => {
    const f = await seedTwoOrganizations(t, 'gestion@alpha.fr');
    const token = await t.login('gestion@alpha.fr');
    expect(await lastNames(t, token)).toEqual(['Alpha']);
    await t.seed((tx) => tx.delete(organizationUsers).where(eq(organizationUsers.uuid, f.alphaLink.uuid)));
    expect(await lastNames(t, token)).toBe("Sélectionnez d'abord une organisation");
  });
});
