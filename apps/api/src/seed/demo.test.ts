import { CGU_VERSION, todayIso } from '@flotte/contract';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../test/test-app.js';
import { DEMO_ACCOUNTS, seedDemoIfEmpty } from './demo.js';

let t: TestContext;
let seeded: Awaited<ReturnType<typeof seedDemoIfEmpty>>;
// Seeded once here, so that every test reads the demo whatever runs first (or alone).
beforeAll(async () => {
  t = await createTestApp();
  seeded = await seedDemoIfEmpty(t.database.db, 'Demo1234!');
});
afterAll(() => t.close());

describe('demo seed', () => {
  it('creates the demo environment once, then reuses it', async () => {
    expect(seeded).toEqual({ created: true, accounts: DEMO_ACCOUNTS });
    const second = await seedDemoIfEmpty(t.database.db, 'Demo1234!');
    expect(second).toEqual({ created: false, accounts: DEMO_ACCOUNTS });
  });

  it('gives every account the roles, organizations and environment of the issue', async () => {
    const me = async (email: string) => {
      const token = await t.login(email, 'Demo1234!');
      const links = await t.as(token, { method: 'GET', url: '/api/organization-user?limit=100' });
      return { token, user: (await t.as(token, { method: 'GET', url: '/api/auth/me' })).json(), links: links.json().data.map((l: { organization: { title: string } }) => l.organization.title).sort() };
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

    const user2 = await me('user2@demo.fr');
    expect(user2.user).toMatchObject({ roles: ['USER'], firstName: 'Sophie', lastName: 'Lambert', cguAcceptedVersion: CGU_VERSION });
    expect(user2.links).toEqual(['BTP Durand']);
    const securite = await me('securite@demo.fr');
    expect(securite.user).toMatchObject({ roles: ['USER'], firstName: 'Hugo', lastName: 'Garnier' });
    expect(securite.links).toEqual(['Transports Martin']);
    expect((await t.as(securite.token, { method: 'GET', url: '/api/auth/totp' })).json()).toMatchObject({ enabled: false, required: false });

    const root = await me('root@demo.fr');
    expect(root.user.roles).toEqual(['ROOT']);

    // The second broker and its client, owned by e2e/superadmin-settings.e2e.ts.
    const broker = await me('courtier@demo.fr');
    expect(broker.user).toMatchObject({ roles: ['SUPERADMIN'], currentEnvironmentUser: { environment: { title: 'Cabinet Réglages' } } });
    expect(broker.links).toEqual(['Garage Réglages']);
    const client = await me('client@demo.fr');
    expect(client.user).toMatchObject({ roles: ['USER'], firstName: 'Inès', lastName: 'Moulin' });
    expect(client.links).toEqual(['Garage Réglages']);
    expect(client.user.currentOrganizationUser.organization.environment.title).toBe('Cabinet Réglages');
    // Outside any environment, it pays for itself: no plan yet, its administrator may choose one.
    const billing = await me('facturation@demo.fr');
    expect(billing.user.roles).toEqual(['ADMIN']);
    expect(billing.links).toEqual(['Garage Lemoine']);
    expect(billing.user.currentOrganizationUser.organization.environment).toBeNull();
    expect((await t.as(billing.token, { method: 'GET', url: '/api/stripe/current-plan' })).json()).toMatchObject({ source: 'none', canPay: true, features: [] });
  });

  it('gives each organization its administrators (a role per organization) and BTP Durand a pending invitation', async () => {
    const token = await t.login('admin2@demo.fr', 'Demo1234!');
    const durand = (await t.as(token, { method: 'GET', url: '/api/auth/me' })).json().currentOrganizationUser.organization;
    expect(durand.title).toBe('BTP Durand');
    const members = (await t.as(token, { method: 'GET', url: `/api/organization-user?organization=${durand.uuid}` })).json();
    expect(members.data.map((l: { user: { email: string }; role: string }) => `${l.user.email} ${l.role}`).sort()).toEqual([
      'admin2@demo.fr ADMIN',
      'admin@demo.fr ADMIN',
      'user2@demo.fr USER',
    ]);
    const invitations = (await t.as(token, { method: 'GET', url: '/api/organization-invitation' })).json();
    expect(invitations.data).toEqual([expect.objectContaining({ email: 'nadia.benali@demo.fr', role: 'USER', invitedBy: { firstName: 'Marc', lastName: 'Durand' } })]);
    // A plain member sees the members, not the invitations.
    const member = await t.login('user2@demo.fr', 'Demo1234!');
    expect((await t.as(member, { method: 'GET', url: '/api/organization-invitation' })).statusCode).toBe(403);
  });

  it('gives Transports Martin a three-year fleet, drivers and claims, and BTP Durand a smaller one', async () => {
    const token = await t.login('user@demo.fr', 'Demo1234!');
    const drivers = (await t.as(token, { method: 'GET', url: '/api/driver' })).json();
    expect(drivers.nbInActivity + drivers.nbOfArchived).toBe(45);
    expect(drivers.nbOfArchived).toBeGreaterThan(0);
    const counts = await t.seed(async (tx) => {
      const result = (await tx.execute(sql`
        select o.title, c.register, c.active, c.archived from register_counts c join organizations o on o.uuid = c.organization_uuid order by 1, 2`)) as { rows: { title: string; register: string; active: number | string; archived: number | string }[] };
      return Object.fromEntries(result.rows.map((r) => [`${r.title}/${r.register}`, Number(r.active) + Number(r.archived)]));
    });
    expect(counts).toMatchObject({ 'Transports Martin/vehicules': 60, 'Transports Martin/sinisters': 150, 'Transports Martin/drivers': 45 });
    expect(counts['BTP Durand/vehicules']).toBeLessThan(30);
    const injuries = await t.seed(async (tx) => {
      const result = (await tx.execute(sql`select count(*)::int as n, min(sinister_date) as first from sinisters where has_human_injury`)) as { rows: { n: number; first: string }[] };
      return result.rows[0]!;
    });
    expect(injuries.n).toBeGreaterThan(0);
    expect(injuries.n).toBeLessThan(20);
    // Every status, with amounts paid and reserved: older claims settled, recent ones still open.
    const statuses = await t.seed(async (tx) => {
      const result = (await tx.execute(
        sql`select status, count(*)::int as n, sum(paid_cents)::float8 as paid, sum(reserve_cents)::float8 as reserve, max(sinister_date) as latest from sinisters group by status`,
      )) as { rows: { status: string; n: number; paid: number; reserve: number; latest: string }[] };
      return Object.fromEntries(result.rows.map((row) => [row.status, row]));
    });
    expect(Object.keys(statuses).sort()).toEqual(['closed', 'inProgress', 'open', 'refused']);
    expect(statuses.closed!.reserve).toBe(0);
    expect(statuses.refused!.paid).toBe(0);
    expect(statuses.inProgress!.paid).toBeGreaterThan(0);
    expect(statuses.inProgress!.reserve).toBeGreaterThan(0);
    expect(statuses.open!.reserve).toBeGreaterThan(0);
  });

  it('gives Transports Martin three chained periods and BTP Durand two, so the dashboard is full on first start', async () => {
    const martin = await t.login('user@demo.fr', 'Demo1234!');
    const periods = (await t.as(martin, { method: 'GET', url: '/api/indicators' })).json();
    expect(periods).toHaveLength(3);
    expect(periods[0].previousIndicatorUuid).toBe(periods[1].uuid);
    expect(periods[1].previousIndicatorUuid).toBe(periods[2].uuid);
    expect(periods[2].previousIndicatorUuid).toBeNull();
    for (const p of periods) expect(p.motorsCount).toBeGreaterThan(0);
    expect((await t.as(martin, { method: 'GET', url: '/api/indicators/current' })).json()).toMatchObject({ uuid: periods[0].uuid });
    const lossRatio = (await t.as(martin, { method: 'GET', url: '/api/dashboard/loss-ratio' })).json();
    expect(lossRatio.earnedPremiums).toBeGreaterThan(0);
    expect(lossRatio.costOfClaims).toBeGreaterThan(0);
    expect((await t.as(martin, { method: 'GET', url: '/api/dashboard/current-half-difference' })).json()).toMatchObject({ indicatorUuid: periods[0].uuid, isCurrent: true });

    const durand = await t.login('admin2@demo.fr', 'Demo1234!');
    expect((await t.as(durand, { method: 'GET', url: '/api/indicators' })).json()).toHaveLength(2);
  });

  it('gives Transports Martin and BTP Durand a contract and an intermediary, so /parameters is full on first start', async () => {
    const martin = await t.login('user@demo.fr', 'Demo1234!');
    const contracts = (await t.as(martin, { method: 'GET', url: '/api/contract' })).json();
    // The contracts follow the periods: the one in force covers today, its échéance ends the current period.
    const periods = (await t.as(martin, { method: 'GET', url: '/api/indicators' })).json();
    const dayAfter = (iso: string) => new Date(Date.parse(`${iso}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
    expect(contracts.map((c: { startDate: string; renewalDate: string }) => [c.startDate, c.renewalDate])).toEqual([
      [periods[0].startDate, dayAfter(periods[0].endDate)],
      [periods[2].startDate, periods[0].startDate],
    ]);
    expect(contracts[0].startDate <= todayIso() && todayIso() < contracts[0].renewalDate).toBe(true);
    expect(contracts[0]).toMatchObject({ insurer: 'Axa France', annualPremium: periods[0].cashReceived });
    expect(contracts[0].guarantees).toContainEqual(expect.objectContaining({ label: 'Bris de glace', deductible: 100 }));
    expect((await t.as(martin, { method: 'GET', url: '/api/insurance-intermediary' })).json()).toHaveLength(2);
    expect((await t.as(martin, { method: 'GET', url: '/api/insurance-intermediary/current' })).json()).toMatchObject({ name: 'Cabinet Démo Courtage' });
    const durand = await t.login('admin2@demo.fr', 'Demo1234!');
    const [durandContract, ...none] = (await t.as(durand, { method: 'GET', url: '/api/contract' })).json();
    expect(none).toEqual([]);
    expect(durandContract).toMatchObject({ insurer: 'MMA Entreprise' });
    expect(durandContract.startDate <= todayIso() && todayIso() < durandContract.renewalDate).toBe(true);
    expect((await t.as(durand, { method: 'GET', url: '/api/insurance-intermediary/current' })).json()).toMatchObject({ productionEmail: 'production@cabinet-demo-courtage.fr' });
  });

  it('gives the demo prevention alerts: the broker’s winter message and automatic ones raised from the data, all unread', async () => {
    const user = await t.login('user@demo.fr', 'Demo1234!');
    const alerts = (await t.as(user, { method: 'GET', url: '/api/alert?limit=100' })).json<{ data: { source: string; title: string; read: boolean; rule: string | null }[] }>().data;
    expect(alerts.filter((a) => a.source === 'written').map((a) => a.title)).toEqual(['Hiver : préparez vos véhicules']);
    expect(alerts.filter((a) => a.source === 'automatic').length).toBeGreaterThan(0);
    expect(alerts.every((a) => !a.read)).toBe(true);
    expect((await t.as(user, { method: 'GET', url: '/api/alert/unread-count' })).json().count).toBe(alerts.length);
  });
});
