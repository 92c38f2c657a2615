import { todayIso } from '@flotte/contract';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { indicators } from '../../db/schema/indicators.js';
import { readSystem, withTenant } from '../../db/scope.js';
import { attachToEnvironment, createEnvironment, createOrganization, createSinisters, createUser, linkUser } from '../../seed/factories.js';
import { createTestApp, type TestContext } from '../../../test/test-app.js';
import { evaluateOrganization } from './alert-rules.js';

/**
 * The prevention alerts' calls (issue 16, decision 037), for every role: a superadmin writes alerts
 * for the organizations of its environment; the members of an organization read theirs on /alerts.
 */

let t: TestContext;
let envA: string;
let envB: string;
let orgA1: string;
let orgA2: string;
let orgB1: string;
let tokens: Record<'superA' | 'superB' | 'adminA1' | 'userA1' | 'userA2' | 'superNoDigest', string>;
let userA1Uuid: string;

beforeAll(async () => {
  t = await createTestApp();
  ({ envA, envB, orgA1, orgA2, orgB1, userA1Uuid } = await t.seed(async (tx) => {
    const a = await createEnvironment(tx, { title: 'Cabinet Azur' });
    const b = await createEnvironment(tx, { title: 'Cabinet Boréal' });
    const a1 = await createOrganization(tx, { title: 'Transports Alpha', environmentUuid: a.uuid });
    const a2 = await createOrganization(tx, { title: 'Bâtiment Delta', environmentUuid: a.uuid });
    const b1 = await createOrganization(tx, { title: 'Livraisons Gamma', environmentUuid: b.uuid });
    const superA = await createUser(tx, { email: 'super@azur.fr', firstName: 'Sophie', lastName: 'Courtier', roles: ['SUPERADMIN'] });
    const superNoDigest = await createUser(tx, { email: 'associe@azur.fr', roles: ['SUPERADMIN'] });
    const superB = await createUser(tx, { email: 'super@boreal.fr', roles: ['SUPERADMIN'] });
    const adminA1 = await createUser(tx, { email: 'admin@alpha.fr' });
    const userA1 = await createUser(tx, { email: 'membre@alpha.fr', firstName: 'Hélène', lastName: 'Lefèvre' });
    const userA2 = await createUser(tx, { email: 'membre@delta.fr' });
    await attachToEnvironment(tx, a.uuid, superA.uuid);
    await attachToEnvironment(tx, a.uuid, superNoDigest.uuid);
    await attachToEnvironment(tx, b.uuid, superB.uuid);
    await linkUser(tx, a1.uuid, superA.uuid);
    await linkUser(tx, a1.uuid, adminA1.uuid, 'ADMIN');
    await linkUser(tx, a1.uuid, userA1.uuid);
    await linkUser(tx, a2.uuid, userA2.uuid);
    await linkUser(tx, b1.uuid, superB.uuid);
    return { envA: a.uuid, envB: b.uuid, orgA1: a1.uuid, orgA2: a2.uuid, orgB1: b1.uuid, userA1Uuid: userA1.uuid };
  }));
  tokens = {
    superA: await t.login('super@azur.fr'),
    superB: await t.login('super@boreal.fr'),
    adminA1: await t.login('admin@alpha.fr'),
    userA1: await t.login('membre@alpha.fr'),
    userA2: await t.login('membre@delta.fr'),
    superNoDigest: await t.login('associe@azur.fr'),
  };
}, 120_000);
afterAll(async () => t?.close());

const written = async () => (await readSystem(t.database.db, (tx) => tx.execute(sql`select count(*)::int as n from prevention_alerts`)) as unknown as { rows: { n: number }[] }).rows[0]!.n;
const copies = async () => (await readSystem(t.database.db, (tx) => tx.execute(sql`select count(*)::int as n from organization_alerts where source = 'written'`)) as unknown as { rows: { n: number }[] }).rows[0]!.n;

const ALERT = { title: 'Vague de froid', body: 'Pensez aux **pneus hiver** avant le 1er décembre.\n\n- contrôlez la pression\n- prévoyez du lave-glace', severity: 'attention', target: { kind: 'all' } };

async function write(token: string, payload: object, environment = envA) {
  return t.as(token, { method: 'POST', url: `/api/environment/${environment}/alert`, payload });
}

async function listOf(token: string, query = '') {
  const response = await t.as(token, { method: 'GET', url: `/api/alert${query}` });
  expect(response.statusCode, response.body).toBe(200);
  return response.json<{ data: { uuid: string; title: string; read: boolean; source: string; severity: string; body: string }[]; total: number }>();
}

const unread = async (token: string) => (await t.as(token, { method: 'GET', url: '/api/alert/unread-count' })).json<{ count: number }>().count;

describe('written alerts: who may write them', () => {
  it('a superadmin of the environment writes one for all its organizations, and lists it', async () => {
    const response = await write(tokens.superA, ALERT);
    expect(response.statusCode, response.body).toBe(201);
    const alert = response.json();
    expect(alert).toMatchObject({ title: 'Vague de froid', severity: 'attention', targetKind: 'all', targetRule: null, organizations: 2, organizationsRead: 0, readers: 0 });
    expect(alert.author).toMatchObject({ firstName: 'Sophie', lastName: 'Courtier' });
    expect(alert.recipients.map((r: { organization: { title: string } }) => r.organization.title)).toEqual(['Bâtiment Delta', 'Transports Alpha']);
    const list = await t.as(tokens.superA, { method: 'GET', url: `/api/environment/${envA}/alert` });
    expect(list.statusCode).toBe(200);
    expect(list.json().data.map((a: { title: string }) => a.title)).toContain('Vague de froid');
  });

  it('a superadmin of another environment gets 404 on every call, and writes nothing', async () => {
    const before = await written();
    const [alert] = (await t.as(tokens.superA, { method: 'GET', url: `/api/environment/${envA}/alert` })).json().data;
    for (const request of [
      { method: 'GET', url: `/api/environment/${envA}/alert` },
      { method: 'POST', url: `/api/environment/${envA}/alert`, payload: ALERT },
      { method: 'GET', url: `/api/environment/${envA}/alert/${alert.uuid}` },
      { method: 'DELETE', url: `/api/environment/${envA}/alert/${alert.uuid}` },
      { method: 'GET', url: `/api/environment/${envA}/alert-digest` },
      { method: 'PUT', url: `/api/environment/${envA}/alert-digest`, payload: { enabled: false } },
    ] as const) {
      const response = await t.as(tokens.superB, request);
      expect(response.statusCode, `${request.method} ${request.url}`).toBe(404);
      expect(response.json().message).toMatch(/introuvable/);
    }
    // Its own environment's alert cannot be read through another environment's path either.
    expect((await t.as(tokens.superB, { method: 'GET', url: `/api/environment/${envB}/alert/${alert.uuid}` })).statusCode).toBe(404);
    expect(await written()).toBe(before);
  });

  it('a plain user or an ADMIN cannot write (403), nor read the console', async () => {
    const before = await written();
    for (const token of [tokens.userA1, tokens.adminA1]) {
      const response = await write(token, ALERT);
      expect(response.statusCode).toBe(403);
      expect(response.json().message).toBe('Seul un superadmin peut gérer les alertes de prévention');
      expect((await t.as(token, { method: 'GET', url: `/api/environment/${envA}/alert` })).statusCode).toBe(403);
    }
    expect(await written()).toBe(before);
  });

  it('refuses bad input in French and writes nothing', async () => {
    const before = [await written(), await copies()];
    const cases: [object, RegExp][] = [
      [{ ...ALERT, title: '  ' }, /Le titre est obligatoire/],
      [{ ...ALERT, body: '' }, /Le message est obligatoire/],
      [{ ...ALERT, severity: 'grave' }, /Gravité : information, attention ou urgent/],
      [{ ...ALERT, target: { kind: 'organizations', organizations: [] } }, /Choisissez au moins une organisation/],
      [{ ...ALERT, target: { kind: 'rule', rule: 'tout' } }, /Règle de ciblage inconnue/],
      [{ ...ALERT, target: { kind: 'personne' } }, /Destinataires/],
      [{ ...ALERT, publishAt: 'demain' }, /Date de publication invalide/],
      [{ ...ALERT, title: 'x'.repeat(201) }, /200 caractères maximum/],
      [{ ...ALERT, extra: true }, /.+/],
      // Another environment's organization is not among the recipients one may choose.
      [{ ...ALERT, target: { kind: 'organizations', organizations: [orgA1, orgB1] } }, /n'existe pas dans cet environnement/],
      // No organization of the environment matches the rule yet.
      [{ ...ALERT, target: { kind: 'rule', rule: 'lossRatioAbove' } }, /Aucune organisation ne correspond à cette règle/],
    ];
    for (const [payload, message] of cases) {
      const response = await write(tokens.superA, payload);
      expect(response.statusCode, JSON.stringify(payload)).toBe(400);
      expect(response.json().message).toMatch(message);
    }
    expect([await written(), await copies()]).toEqual(before);
  });
});

describe('targets and schedule', () => {
  it('chosen organizations only receive it', async () => {
    const response = await write(tokens.superA, { ...ALERT, title: 'Pour Delta seulement', target: { kind: 'organizations', organizations: [orgA2] } });
    expect(response.statusCode, response.body).toBe(201);
    expect((await listOf(tokens.userA2)).data.map((a) => a.title)).toContain('Pour Delta seulement');
    expect((await listOf(tokens.userA1)).data.map((a) => a.title)).not.toContain('Pour Delta seulement');
  });

  it('a rule reaches the organizations whose automatic alert of that kind is open', async () => {
    const today = todayIso();
    await t.seed(async (tx) => {
      await tx.insert(indicators).values({ organizationUuid: orgA1, startDate: `${today.slice(0, 4)}-01-01`, endDate: `${today.slice(0, 4)}-12-31`, motorsCount: 10, cashReceivedCents: 100_000 });
      await createSinisters(tx, orgA1, [{ sinisterDate: today, totalCostCents: 500_000 }]);
    });
    await withTenant(t.database.db, orgA1, (tx) => evaluateOrganization(tx, orgA1));
    const response = await write(tokens.superA, { ...ALERT, title: 'S/P : rendez-vous', severity: 'urgent', target: { kind: 'rule', rule: 'lossRatioAbove' } });
    expect(response.statusCode, response.body).toBe(201);
    expect(response.json()).toMatchObject({ targetKind: 'rule', targetRule: 'lossRatioAbove', organizations: 1 });
    expect(response.json().recipients.map((r: { organization: { uuid: string } }) => r.organization.uuid)).toEqual([orgA1]);
  });

  it('a scheduled alert stays hidden from members until its publication date', async () => {
    const publishAt = new Date(Date.now() + 3 * 86_400_000).toISOString();
    const response = await write(tokens.superA, { ...ALERT, title: 'Programmée', publishAt });
    expect(response.statusCode, response.body).toBe(201);
    expect(response.json().publishAt).toBe(publishAt);
    expect((await listOf(tokens.userA1)).data.map((a) => a.title)).not.toContain('Programmée');
    // Not readable before it is out.
    const copy = (await readSystem(t.database.db, (tx) => tx.execute(sql`select uuid from organization_alerts where title = 'Programmée' and organization_uuid = ${orgA1}`))) as unknown as { rows: { uuid: string }[] };
    expect((await t.as(tokens.userA1, { method: 'POST', url: `/api/alert/${copy.rows[0]!.uuid}/read` })).statusCode).toBe(404);
  });
});

describe('/alerts for members', () => {
  it('lists the organization’s alerts newest first, unread marked, filtered by severity', async () => {
    const list = await listOf(tokens.userA1);
    expect(list.data.length).toBeGreaterThanOrEqual(3);
    expect(list.data.every((a) => !a.read)).toBe(true);
    expect(list.data.map((a) => a.source)).toContain('automatic');
    expect(list.data.map((a) => a.source)).toContain('written');
    const urgent = await listOf(tokens.userA1, '?severity=urgent');
    expect(urgent.data.length).toBeGreaterThan(0);
    expect(urgent.data.every((a) => a.severity === 'urgent')).toBe(true);
    const bad = await t.as(tokens.userA1, { method: 'GET', url: '/api/alert?severity=grave' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toMatch(/Gravité/);
  });

  it('reads one: the badge goes down, the broker sees who read it', async () => {
    const before = await unread(tokens.userA1);
    const alert = (await listOf(tokens.userA1)).data.find((a) => a.title === 'Vague de froid')!;
    expect((await t.as(tokens.userA1, { method: 'POST', url: `/api/alert/${alert.uuid}/read` })).statusCode).toBe(204);
    // Twice is once.
    expect((await t.as(tokens.userA1, { method: 'POST', url: `/api/alert/${alert.uuid}/read` })).statusCode).toBe(204);
    expect(await unread(tokens.userA1)).toBe(before - 1);
    expect((await listOf(tokens.userA1)).data.find((a) => a.uuid === alert.uuid)!.read).toBe(true);
    expect((await listOf(tokens.userA1, '?unread=true')).data.map((a) => a.uuid)).not.toContain(alert.uuid);
    // Read for this user only.
    expect((await listOf(tokens.adminA1)).data.find((a) => a.uuid === alert.uuid)!.read).toBe(false);
    const [prevention] = (await t.as(tokens.superA, { method: 'GET', url: `/api/environment/${envA}/alert` })).json().data.filter((a: { title: string }) => a.title === 'Vague de froid');
    const detail = (await t.as(tokens.superA, { method: 'GET', url: `/api/environment/${envA}/alert/${prevention.uuid}` })).json();
    expect(detail).toMatchObject({ organizations: 2, organizationsRead: 1, readers: 1 });
    const alpha = detail.recipients.find((r: { organization: { uuid: string } }) => r.organization.uuid === orgA1);
    expect(alpha.readers).toEqual([expect.objectContaining({ uuid: userA1Uuid, firstName: 'Hélène', lastName: 'Lefèvre' })]);
    expect(detail.recipients.find((r: { organization: { uuid: string } }) => r.organization.uuid === orgA2).readers).toEqual([]);
  });

  it('a member of another organization gets 404 on an alert that is not its organization’s', async () => {
    const alert = (await listOf(tokens.userA1)).data[0]!;
    expect((await t.as(tokens.userA2, { method: 'POST', url: `/api/alert/${alert.uuid}/read` })).statusCode).toBe(404);
    expect((await listOf(tokens.userA2)).data.map((a) => a.uuid)).not.toContain(alert.uuid);
    expect((await t.as(tokens.userA2, { method: 'POST', url: '/api/alert/pas-un-uuid/read' })).statusCode).toBe(400);
  });

  it('marks every alert read at once', async () => {
    expect(await unread(tokens.adminA1)).toBeGreaterThan(0);
    const response = await t.as(tokens.adminA1, { method: 'POST', url: '/api/alert/read-all' });
    expect(response.statusCode).toBe(200);
    expect(response.json().count).toBeGreaterThan(0);
    expect(await unread(tokens.adminA1)).toBe(0);
  });

  it('a withdrawn alert disappears from its organizations', async () => {
    const [prevention] = (await t.as(tokens.superA, { method: 'GET', url: `/api/environment/${envA}/alert` })).json().data.filter((a: { title: string }) => a.title === 'Pour Delta seulement');
    expect((await t.as(tokens.superA, { method: 'DELETE', url: `/api/environment/${envA}/alert/${prevention.uuid}` })).statusCode).toBe(204);
    expect((await listOf(tokens.userA2)).data.map((a) => a.title)).not.toContain('Pour Delta seulement');
    expect((await t.as(tokens.superA, { method: 'DELETE', url: `/api/environment/${envA}/alert/${prevention.uuid}` })).statusCode).toBe(404);
  });

  it('needs a session', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/api/alert' })).statusCode).toBe(401);
    expect((await t.app.inject({ method: 'GET', url: '/api/alert/unread-count' })).statusCode).toBe(401);
  });
});

describe('the digest opt-out', () => {
  it('is on by default and each superadmin turns its own off', async () => {
    const url = `/api/environment/${envA}/alert-digest`;
    expect((await t.as(tokens.superNoDigest, { method: 'GET', url })).json()).toEqual({ enabled: true });
    const off = await t.as(tokens.superNoDigest, { method: 'PUT', url, payload: { enabled: false } });
    expect(off.statusCode).toBe(200);
    expect(off.json()).toEqual({ enabled: false });
    expect((await t.as(tokens.superNoDigest, { method: 'GET', url })).json()).toEqual({ enabled: false });
    expect((await t.as(tokens.superA, { method: 'GET', url })).json()).toEqual({ enabled: true });
    const bad = await t.as(tokens.superA, { method: 'PUT', url, payload: { enabled: 'non' } });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toMatch(/oui ou non/);
    expect((await t.as(tokens.superA, { method: 'GET', url })).json()).toEqual({ enabled: true });
    expect((await t.as(tokens.userA1, { method: 'PUT', url, payload: { enabled: false } })).statusCode).toBe(403);
  });
});
