import { todayIso } from '@flotte/contract';
import { count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dashboardConfigs, indicators } from '../../db/schema/indicators.js';
import { mailOutbox } from '../../db/schema/mail.js';
import { organizationInvitations, organizations, organizationUsers } from '../../db/schema/organizations.js';
import {
  attachToEnvironment,
  createEnvironment,
  createInsuranceContract,
  createOrganization,
  createSinisters,
  createUser,
  createVehicules,
  linkUser,
} from '../../seed/factories.js';
import { createTestApp, type TestContext } from '../../../test/test-app.js';

/**
 * The broker's table (decision 039) on hand-built data: two organizations of one environment with
 * different limits, a third without period, and a fourth in another environment. Every figure is
 * worked out below, and checked against the dashboard's own endpoints as each organization's member.
 */
const DAY = 86_400_000;
const today = todayIso();
const addDays = (days: number) => new Date(Date.parse(`${today}T00:00:00Z`) + days * DAY).toISOString().slice(0, 10);
const year = today.slice(0, 4);

let t: TestContext;
let tokens: Record<'root' | 'superA' | 'superB' | 'adminA1' | 'userA1' | 'memberA2' | 'superTwo', string>;
let ids: { envA: string; envB: string; envEmpty: string; a1: string; a2: string; a3: string; b1: string };

beforeAll(async () => {
  t = await createTestApp();
  ids = await t.seed(async (tx) => {
    const envA = await createEnvironment(tx, { title: 'Cabinet Horizon' });
    const envB = await createEnvironment(tx, { title: 'Courtage Bêta' });
    const envEmpty = await createEnvironment(tx, { title: 'Espace vide' });
    const a1 = await createOrganization(tx, { title: 'Étoile Transports', environmentUuid: envA.uuid });
    const a2 = await createOrganization(tx, { title: 'Ambulances Alpha', environmentUuid: envA.uuid });
    const a3 = await createOrganization(tx, { title: 'Zéphyr Sans Période', environmentUuid: envA.uuid });
    const b1 = await createOrganization(tx, { title: 'Bêta Logistique', environmentUuid: envB.uuid });

    await createUser(tx, { email: 'root@exemple.fr', roles: ['ROOT'] });
    const superA = await createUser(tx, { email: 'super-a@exemple.fr', roles: ['SUPERADMIN'] });
    const superB = await createUser(tx, { email: 'super-b@exemple.fr', roles: ['SUPERADMIN'] });
    const superTwo = await createUser(tx, { email: 'super-two@exemple.fr', roles: ['SUPERADMIN'] });
    const adminA1 = await createUser(tx, { email: 'admin-a1@exemple.fr' });
    const userA1 = await createUser(tx, { email: 'user-a1@exemple.fr', roles: ['USER'] });
    const memberA2 = await createUser(tx, { email: 'member-a2@exemple.fr' });
    await attachToEnvironment(tx, envA.uuid, superA.uuid);
    await attachToEnvironment(tx, envB.uuid, superB.uuid);
    await attachToEnvironment(tx, envA.uuid, superTwo.uuid);
    await attachToEnvironment(tx, envB.uuid, superTwo.uuid);
    await linkUser(tx, a1.uuid, adminA1.uuid, 'ADMIN');
    await linkUser(tx, a1.uuid, userA1.uuid);
    await linkUser(tx, a2.uuid, memberA2.uuid, 'ADMIN');

    // A1 — default limits (70 %, 20 %). Period of 365 days, today its 100th: earned 36 500 € × 100 / 365 = 10 000 €.
    await tx.insert(indicators).values([
      { organizationUuid: a1.uuid, startDate: addDays(-99), endDate: addDays(265), motorsCount: 10, cashReceivedCents: 3_650_000 },
      // The period before it: its claims and premiums never enter the current period's figures.
      { organizationUuid: a1.uuid, startDate: addDays(-464), endDate: addDays(-100), motorsCount: 8, cashReceivedCents: 9_999_900 },
    ]);
    // Fleet: 12 vehicles in (N1 = 12, N0 = 10: half-difference +1, regularisation 2 × 36 500 / (2 × 10) = 3 650 €);
    // one gone and archived (neither in the fleet nor active).
    await createVehicules(tx, a1.uuid, [
      ...Array.from({ length: 12 }, (_, i) => ({ immatriculation: `AA-${String(100 + i)}-AA`, type: 'VP', entryDate: addDays(-200) })),
      { immatriculation: 'AA-200-AA', type: 'VP', entryDate: addDays(-200), exitDate: addDays(-5), archivedAt: new Date() },
    ]);
    // Claims of the period: 4 000 € + 3 000 € → S/P 7 000 / 10 000 = 70 % (at its limit: orange), frequency 2 / 10 = 20 % (orange).
    // The day before the period (9 000 €), an archived claim and one of last year never count in the period.
    await createSinisters(tx, a1.uuid, [
      { sinisterDate: addDays(-98), totalCostCents: 400_000 },
      { sinisterDate: addDays(-1), totalCostCents: 300_000, isDeclared: false },
      { sinisterDate: addDays(-100), totalCostCents: 9_000_000 },
      { sinisterDate: addDays(-3), totalCostCents: 5_000_000, archivedAt: new Date() },
      { sinisterDate: `${Number(year) - 1}-12-31`, totalCostCents: 100 },
    ]);
    // Two versions of the contract: the newest is in force.
    await createInsuranceContract(tx, a1.uuid, { renewalDate: '2026-12-01', createdAt: new Date('2026-01-01T00:00:00Z') });
    await createInsuranceContract(tx, a1.uuid, { startDate: '2026-03-01', renewalDate: '2027-03-01', createdAt: new Date('2026-03-01T00:00:00Z') });

    // A2 — limits 50 % and 10 %. 365 days from 9 days ago: earned 73 000 € × 10 / 365 = 2 000 €.
    await tx.insert(dashboardConfigs).values({ organizationUuid: a2.uuid, lossRatioPercentage: 50, claimFrequencyPercentage: 10 });
    await tx.insert(indicators).values({ organizationUuid: a2.uuid, startDate: addDays(-9), endDate: addDays(355), motorsCount: 4, cashReceivedCents: 7_300_000 });
    // 3 vehicles (N1 = 3, N0 = 4: half-difference −0,5, regularisation −1 × 73 000 / 8 = −9 125 €).
    await createVehicules(tx, a2.uuid, [
      { immatriculation: 'BB-100-BB', type: 'VUL', entryDate: addDays(-30) },
      { immatriculation: 'BB-101-BB', type: 'VUL', entryDate: null },
      { immatriculation: 'BB-102-BB', type: 'VUL', entryDate: addDays(-1) },
    ]);
    // 1 500 € → S/P 75 % (above 50: red), frequency 1 / 4 = 25 % (above 10: red).
    await createSinisters(tx, a2.uuid, [{ sinisterDate: addDays(-2), totalCostCents: 150_000 }]);

    // B1, another environment, with figures of its own.
    await createVehicules(tx, b1.uuid, [{ immatriculation: 'CC-100-CC', type: 'VP', entryDate: addDays(-30) }]);
    return { envA: envA.uuid, envB: envB.uuid, envEmpty: envEmpty.uuid, a1: a1.uuid, a2: a2.uuid, a3: a3.uuid, b1: b1.uuid };
  });
  tokens = {
    root: await t.login('root@exemple.fr'),
    superA: await t.login('super-a@exemple.fr'),
    superB: await t.login('super-b@exemple.fr'),
    superTwo: await t.login('super-two@exemple.fr'),
    adminA1: await t.login('admin-a1@exemple.fr'),
    userA1: await t.login('user-a1@exemple.fr'),
    memberA2: await t.login('member-a2@exemple.fr'),
  };
});
afterAll(() => t.close());

const get = (token: string, query: Record<string, string> = {}) => t.as(token, { method: 'GET', url: '/api/broker/organization', query });
const organizationCount = () => t.seed(async (tx) => (await tx.select({ n: count() }).from(organizations))[0]!.n);

describe('GET /api/broker/organization', () => {
  it('answers every organization of the environment with its figures, worked out by hand', async () => {
    const response = await get(tokens.superA);
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body.environment).toEqual({ uuid: ids.envA, title: 'Cabinet Horizon' });
    expect(body.total).toBe(3);
    // French title order: Ambulances, Étoile (with the E), Zéphyr.
    expect(body.data.map((o: { title: string }) => o.title)).toEqual(['Ambulances Alpha', 'Étoile Transports', 'Zéphyr Sans Période']);
    const [a2, a1, a3] = body.data;
    // The claim of the day before A1's period counts in the year only if that day is this year.
    const beforePeriodThisYear = addDays(-100).startsWith(year) ? 1 : 0;
    const periodClaimsThisYear = [addDays(-98), addDays(-1)].filter((d) => d.startsWith(year)).length;
    expect(a1).toEqual({
      uuid: ids.a1,
      title: 'Étoile Transports',
      avatar: null,
      vehicles: 12,
      claimsThisYear: periodClaimsThisYear + beforePeriodThisYear,
      period: { uuid: expect.any(String), startDate: addDays(-99), endDate: addDays(265) },
      lossRatio: 70,
      lossRatioLimit: 70,
      claimFrequency: 20,
      claimFrequencyLimit: 20,
      halfDifference: 1,
      regularisation: 3650,
      nextRenewal: '2027-03-01',
      lastActivity: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/),
    });
    expect(Math.abs(Date.parse(a1.lastActivity) - Date.now())).toBeLessThan(10 * 60_000);
    expect(a2).toMatchObject({
      uuid: ids.a2,
      vehicles: 3,
      claimsThisYear: addDays(-2).startsWith(year) ? 1 : 0,
      period: { startDate: addDays(-9), endDate: addDays(355) },
      lossRatio: 75,
      lossRatioLimit: 50,
      claimFrequency: 25,
      claimFrequencyLimit: 10,
      halfDifference: -0.5,
      regularisation: -9125,
      nextRenewal: null,
    });
    expect(a3).toEqual({
      uuid: ids.a3,
      title: 'Zéphyr Sans Période',
      avatar: null,
      vehicles: 0,
      claimsThisYear: 0,
      period: null,
      lossRatio: null,
      lossRatioLimit: 70,
      claimFrequency: null,
      claimFrequencyLimit: 20,
      halfDifference: null,
      regularisation: null,
      nextRenewal: null,
      lastActivity: null,
    });
  });

  it("gives the dashboard's own figures for each organization", async () => {
    const rows = (await get(tokens.superA)).json().data as { uuid: string; period: { startDate: string } | null; lossRatio: number; claimFrequency: number; halfDifference: number; regularisation: number; lossRatioLimit: number; claimFrequencyLimit: number }[];
    for (const [token, uuid] of [[tokens.adminA1, ids.a1], [tokens.memberA2, ids.a2]] as const) {
      const row = rows.find((r) => r.uuid === uuid)!;
      const dashboard = async (url: string) => (await t.as(token, { method: 'GET', url })).json();
      expect((await dashboard(`/api/dashboard/loss-ratio?startDate=${row.period!.startDate}&endDate=${today}`)).ratio).toBe(row.lossRatio);
      expect((await dashboard('/api/dashboard/claim-frequency')).frequency).toBe(row.claimFrequency);
      const half = await dashboard('/api/dashboard/current-half-difference');
      expect([half.halfDifference, half.regularisation]).toEqual([row.halfDifference, row.regularisation]);
      const config = await dashboard('/api/dashboard/config');
      expect([config.lossRatioPercentage, config.claimFrequencyPercentage]).toEqual([row.lossRatioLimit, row.claimFrequencyLimit]);
    }
  });

  it.each([
    ['title', ['Ambulances Alpha', 'Étoile Transports', 'Zéphyr Sans Période']],
    ['-title', ['Zéphyr Sans Période', 'Étoile Transports', 'Ambulances Alpha']],
    ['vehicles', ['Zéphyr Sans Période', 'Ambulances Alpha', 'Étoile Transports']],
    ['-vehicles', ['Étoile Transports', 'Ambulances Alpha', 'Zéphyr Sans Période']],
    // Organizations without the figure come last in both directions.
    ['lossRatio', ['Étoile Transports', 'Ambulances Alpha', 'Zéphyr Sans Période']],
    ['-lossRatio', ['Ambulances Alpha', 'Étoile Transports', 'Zéphyr Sans Période']],
    ['claimFrequency', ['Étoile Transports', 'Ambulances Alpha', 'Zéphyr Sans Période']],
    ['-claimFrequency', ['Ambulances Alpha', 'Étoile Transports', 'Zéphyr Sans Période']],
    ['regularisation', ['Ambulances Alpha', 'Étoile Transports', 'Zéphyr Sans Période']],
    ['-regularisation', ['Étoile Transports', 'Ambulances Alpha', 'Zéphyr Sans Période']],
    ['nextRenewal', ['Étoile Transports', 'Ambulances Alpha', 'Zéphyr Sans Période']],
    ['-lastActivity', ['Ambulances Alpha', 'Étoile Transports', 'Zéphyr Sans Période']],
  ])('sorts on the server by %s', async (sortBy, expected) => {
    const response = await get(tokens.superA, { sortBy });
    expect(response.statusCode).toBe(200);
    expect(response.json().data.map((o: { title: string }) => o.title)).toEqual(expected);
  });

  it('sorts by the claims of the year, ties in title order', async () => {
    const body = (await get(tokens.superA, { sortBy: '-claimsThisYear' })).json();
    const claims = body.data.map((o: { claimsThisYear: number }) => o.claimsThisYear);
    expect(claims).toEqual([...claims].sort((a, b) => b - a));
  });

  it('searches the title ignoring accents and case, and pages', async () => {
    const found = (await get(tokens.superA, { search: 'ETOILE' })).json();
    expect(found.data.map((o: { uuid: string }) => o.uuid)).toEqual([ids.a1]);
    expect(found.total).toBe(1);
    const page2 = (await get(tokens.superA, { limit: '2', page: '2' })).json();
    expect(page2).toMatchObject({ page: 2, nbOfPages: 2, total: 3 });
    expect(page2.data.map((o: { title: string }) => o.title)).toEqual(['Zéphyr Sans Période']);
    const past = (await get(tokens.superA, { limit: '2', page: '5' })).json();
    expect(past).toMatchObject({ data: [], page: 5, nbOfPages: 2, total: 3 });
    for (const search of ['%', '_']) expect((await get(tokens.superA, { search })).json().total).toBe(0);
  });

  it('shows a superadmin only its own environment, and another environment as not found', async () => {
    const b = (await get(tokens.superB)).json();
    expect(b.data.map((o: { uuid: string }) => o.uuid)).toEqual([ids.b1]);
    const foreign = await get(tokens.superB, { environment: ids.envA });
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json().message).toBe('Environnement introuvable');
    expect((await get(tokens.superA, { environment: '00000000-0000-4000-8000-000000000000' })).statusCode).toBe(404);
  });

  it('asks a superadmin of several environments which one, and ROOT for one given', async () => {
    const ambiguous = await get(tokens.superTwo);
    expect(ambiguous.statusCode).toBe(400);
    expect(ambiguous.json().details).toEqual([{ path: 'environment', message: 'Précisez l’environnement (paramètre « environment »)' }]);
    expect((await get(tokens.superTwo, { environment: ids.envB })).json().total).toBe(1);
    const root = await get(tokens.root, { environment: ids.envA });
    expect(root.statusCode).toBe(200);
    expect(root.json().total).toBe(3);
    expect((await get(tokens.root, { environment: ids.envEmpty })).json()).toMatchObject({ data: [], total: 0, nbOfPages: 1 });
    expect((await get(tokens.root)).statusCode).toBe(404);
  });

  it('refuses members of organizations, ADMIN or not, with 403', async () => {
    for (const token of [tokens.adminA1, tokens.userA1]) {
      const response = await get(token, { environment: ids.envA });
      expect(response.statusCode).toBe(403);
      expect(response.json().message).toBe('Réservé aux superadmins de l’environnement et aux administrateurs de la plateforme');
    }
  });

  it('answers bad input in French', async () => {
    const bad = await get(tokens.superA, { sortBy: 'password' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().details[0]).toMatchObject({ path: 'sortBy', message: expect.stringContaining('Tri invalide') });
    expect((await get(tokens.superA, { environment: 'pas-un-uuid' })).json().details[0]).toEqual({ path: 'environment', message: 'Identifiant invalide' });
    expect((await get(tokens.superA, { page: '0' })).statusCode).toBe(400);
    expect((await t.as('', { method: 'GET', url: '/api/broker/organization' })).statusCode).toBe(401);
  });
});

describe('GET /api/broker/organization/export', () => {
  it('exports the view as CSV, French style, sorted as asked', async () => {
    const response = await t.as(tokens.superA, { method: 'GET', url: '/api/broker/organization/export', query: { format: 'csv', sortBy: '-lossRatio' } });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(response.headers['content-disposition']).toContain(`organisations-${today}.csv`);
    const lines = response.body.replace(/^\uFEFF/, '').trim().split('\r\n');
    expect(lines[0]).toBe(
      'Organisation;Véhicules;Sinistres de l’année;Début de période;Fin de période;S/P (%);Limite S/P (%);Fréquence (%);Limite fréquence (%);Demi-différence (véhicules);Régularisation;Échéance;Dernière activité',
    );
    expect(lines).toHaveLength(4);
    expect(lines[1]).toMatch(/^Ambulances Alpha;3;\d;[\d/]+;[\d/]+;75;50;25;10;-0,5;-9 125,00;;\d\d\/\d\d\/\d{4}$/);
    expect(lines[2]).toContain(';70;70;20;20;1;3 650,00;01/03/2027;');
    expect(lines[3]).toBe('Zéphyr Sans Période;0;0;;;;70;;20;;;;');
  });

  it('exports XLSX, and refuses a foreign environment or a plain member', async () => {
    const xlsx = await t.as(tokens.superA, { method: 'GET', url: '/api/broker/organization/export', query: { format: 'xlsx', search: 'zéphyr' } });
    expect(xlsx.statusCode).toBe(200);
    expect(xlsx.rawPayload.subarray(0, 2).toString()).toBe('PK');
    expect((await t.as(tokens.superB, { method: 'GET', url: '/api/broker/organization/export', query: { format: 'csv', environment: ids.envA } })).statusCode).toBe(404);
    expect((await t.as(tokens.adminA1, { method: 'GET', url: '/api/broker/organization/export', query: { format: 'csv' } })).statusCode).toBe(403);
    const noFormat = await t.as(tokens.superA, { method: 'GET', url: '/api/broker/organization/export' });
    expect(noFormat.statusCode).toBe(400);
    expect(noFormat.json().details[0]).toEqual({ path: 'format', message: 'Le format est obligatoire : csv ou xlsx' });
  });
});

describe('POST /api/broker/organization', () => {
  const post = (token: string, payload: unknown) => t.as(token, { method: 'POST', url: '/api/broker/organization', payload: payload as object });

  it("creates an organization in the superadmin's environment, shown in the table at once", async () => {
    const response = await post(tokens.superB, { title: '  Garage du Port  ' });
    expect(response.statusCode).toBe(201);
    expect(response.json()).toEqual({
      uuid: expect.any(String),
      title: 'Garage du Port',
      avatar: null,
      environment: { uuid: ids.envB, title: 'Courtage Bêta' },
      subscription: null,
    });
    const table = (await get(tokens.superB, { search: 'port' })).json();
    expect(table.data).toHaveLength(1);
    expect(table.data[0]).toMatchObject({ title: 'Garage du Port', vehicles: 0, period: null, lastActivity: null });
    const [row] = await t.seed((tx) => tx.select().from(organizations).where(eq(organizations.uuid, response.json().uuid)));
    expect(row!.environmentUuid).toBe(ids.envB);
  });

  it('invites its first ADMIN by e-mail in the same transaction; the link makes the invited person its administrator', async () => {
    const response = await post(tokens.superA, { title: 'Transports Invités', adminEmail: ' Premier.Admin@Exemple.fr ' });
    expect(response.statusCode, response.body).toBe(201);
    const uuid = response.json().uuid as string;
    const invitations = await t.seed((tx) => tx.select().from(organizationInvitations).where(eq(organizationInvitations.organizationUuid, uuid)));
    expect(invitations).toEqual([expect.objectContaining({ email: 'premier.admin@exemple.fr', role: 'ADMIN', acceptedAt: null })]);
    const [mail] = await t.seed((tx) => tx.select().from(mailOutbox).where(eq(mailOutbox.recipient, 'premier.admin@exemple.fr')));
    expect(mail).toMatchObject({ template: 'organization-invitation', organizationUuid: uuid, subject: expect.stringContaining('Transports Invités') });
    expect(mail!.text).toContain('Cabinet Horizon');
    // The link in the e-mail works as the members page's: a new account, ADMIN of the new organization.
    const token = /[?&]invitation=([\w-]+)/.exec(mail!.text ?? '')![1]!;
    const accepted = await t.app.inject({
      method: 'POST',
      url: '/api/invitation/accept',
      payload: { token, firstName: 'Paule', lastName: 'Première', password: 'Une phrase bien à moi 2026', cguAccepted: true },
    });
    expect(accepted.statusCode, accepted.body).toBe(201);
    const [link] = await t.seed((tx) => tx.select({ role: organizationUsers.role }).from(organizationUsers).where(eq(organizationUsers.organizationUuid, uuid)));
    expect(link).toEqual({ role: 'ADMIN' });
  });

  it('writes nothing when the first ADMIN’s address is invalid', async () => {
    const before = await organizationCount();
    const outboxBefore = await t.seed(async (tx) => (await tx.select({ n: count() }).from(mailOutbox))[0]!.n);
    const response = await post(tokens.superA, { title: 'Adresse fausse', adminEmail: 'pas-une-adresse' });
    expect(response.statusCode).toBe(400);
    expect(response.json().details[0]).toMatchObject({ path: 'adminEmail', message: expect.stringMatching(/e-mail/i) });
    expect(await organizationCount()).toBe(before);
    expect(await t.seed(async (tx) => (await tx.select({ n: count() }).from(mailOutbox))[0]!.n)).toBe(outboxBefore);
  });

  it('lets ROOT create in the environment it names', async () => {
    const response = await post(tokens.root, { title: 'Créée par la plateforme', environment: ids.envEmpty });
    expect(response.statusCode).toBe(201);
    expect(response.json().environment.uuid).toBe(ids.envEmpty);
  });

  it('refuses, writing nothing: bad input in French, another environment (404), a member (403)', async () => {
    const before = await organizationCount();
    const empty = await post(tokens.superA, { title: '   ' });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().details[0]).toMatchObject({ path: 'title', message: expect.stringContaining("Le nom de l'organisation") });
    const long = await post(tokens.superA, { title: 'x'.repeat(121) });
    expect(long.statusCode).toBe(400);
    expect(long.json().details[0].path).toBe('title');
    const extra = await post(tokens.superA, { title: 'Ok', environmentUuid: ids.envB });
    expect(extra.statusCode).toBe(400);
    expect((await post(tokens.superA, { title: 'Intrus', environment: ids.envB })).statusCode).toBe(404);
    expect((await post(tokens.superTwo, { title: 'Lequel ?' })).statusCode).toBe(400);
    const member = await post(tokens.adminA1, { title: 'Pas le droit' });
    expect(member.statusCode).toBe(403);
    expect(await organizationCount()).toBe(before);
  });
});
