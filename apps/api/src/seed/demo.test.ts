import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../test/test-app.js';
import { DEMO_ACCOUNTS, seedDemoIfEmpty } from './demo.js';

let t: TestContext;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe('demo seed', () => {
  it('creates the demo environment once, then reuses it', async () => {
    const first = await seedDemoIfEmpty(t.database.db, 'Demo1234!');
    expect(first).toEqual({ created: true, accounts: DEMO_ACCOUNTS });
    const second = await seedDemoIfEmpty(t.database.db, 'Demo1234!');
    expect(second).toEqual({ created: false, accounts: DEMO_ACCOUNTS });
  });

  it('gives every account the roles, organizations and environment of the issue', async () => {
    const me = async (email: string) => {
      const token = await t.login(email, 'Demo1234!');
      const links = await t.as(token, { method: 'GET', url: '/api/organization-user?limit=100' });
      return { user: (await t.as(token, { method: 'GET', url: '/api/auth/me' })).json(), links: links.json().data.map((l: { organization: { title: string } }) => l.organization.title).sort() };
    };
    const superadmin = await me('superadmin@demo.fr');
    expect(superadmin.user).toMatchObject({ roles: ['SUPERADMIN'], currentEnvironmentUser: { environment: { title: 'Cabinet Démo Courtage' } } });
    expect(superadmin.user.description).toBeTruthy();
    expect(superadmin.user.phone).toMatch(/^\+33/);

    const admin = await me('admin@demo.fr');
    expect(admin.user.roles).toEqual(['ADMIN']);
    expect(admin.links).toEqual(['BTP Durand', 'Transports Martin']);

    const user = await me('user@demo.fr');
    expect(user.user.roles).toEqual(['USER']);
    expect(user.links).toEqual(['Transports Martin']);
    expect(user.user.currentOrganizationUser.organization.environment.title).toBe('Cabinet Démo Courtage');

    const admin2 = await me('admin2@demo.fr');
    expect(admin2.links).toEqual(['BTP Durand']);

    const root = await me('root@demo.fr');
    expect(root.user.roles).toEqual(['ROOT']);
  });
});
