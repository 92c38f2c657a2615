import { and, eq, notInArray, sql, TransactionRollbackError } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { drivers } from '../../db/schema/drivers.js';
import { searchPatterns, searchTextMatches } from '../../db/search.js';
import { createDrivers, createOrganization, createUser, linkUser } from '../../seed/factories.js';
import { createTestApp, type TestContext } from '../../../test/test-app.js';

let t: TestContext;
let orgA: { uuid: string };
let foreignDriver: { uuid: string };
let seededDrivers: string[];
let admin: string;
let user: string;
let outsider: string;
let orphan: string;

const names = [
  { firstName: 'Élodie', lastName: 'Écuyer', email: 'elodie.ecuyer@martin.fr', phone: '+33612345678' },
  { firstName: 'Jérôme', lastName: 'Bernard', email: 'jerome.bernard@martin.fr', phone: '+33698765432' },
  { firstName: 'Anne', lastName: 'Dupont', email: null, phone: null },
  { firstName: 'Zoé', lastName: 'Martin', email: 'zoe@martin.fr', phone: '+33145678901' },
];

beforeAll(async () => {
  t = await createTestApp();
  ({ orgA, foreignDriver, seededDrivers } = await t.seed(async (tx) => {
    const orgA = await createOrganization(tx, { title: 'Transports Alpha' });
    const orgB = await createOrganization(tx, { title: 'Bêta BTP' });
    const a = await createUser(tx, { email: 'admin@alpha.fr' });
    const u = await createUser(tx, { email: 'user@alpha.fr' });
    const b = await createUser(tx, { email: 'admin@beta.fr' });
    await createUser(tx, { email: 'orphelin@exemple.fr' });
    await linkUser(tx, orgA.uuid, a.uuid, 'ADMIN');
    await linkUser(tx, orgA.uuid, u.uuid);
    await linkUser(tx, orgB.uuid, b.uuid, 'ADMIN');
    const seeded = await createDrivers(tx, orgA.uuid, [
      ...names,
      ...Array.from({ length: 21 }, (_, i) => ({ firstName: 'Paul', lastName: `Lambda ${String(i).padStart(2, '0')}` })),
      { firstName: 'Ancien', lastName: 'Archivé', archivedAt: new Date('2025-01-01') },
      { firstName: 'Parti', lastName: 'Retraité', archivedAt: new Date('2025-06-01') },
    ]);
    const [foreignDriver] = await createDrivers(tx, orgB.uuid, [{ firstName: 'Secret', lastName: 'Bêta' }]);
    return { orgA, foreignDriver: foreignDriver!, seededDrivers: seeded.map((d) => d.uuid) };
  }));
  admin = await t.login('admin@alpha.fr');
  user = await t.login('user@alpha.fr');
  outsider = await t.login('admin@beta.fr');
  orphan = await t.login('orphelin@exemple.fr');
});
afterAll(() => t.close());
// The list tests read Alpha's register as seeded: the drivers a test adds to it go after it, even when it fails halfway.
afterEach(() => t.seed((tx) => tx.delete(drivers).where(and(eq(drivers.organizationUuid, orgA.uuid), notInArray(drivers.uuid, seededDrivers)))));

const get = (token: string, query = '') => t.as(token, { method: 'GET', url: `/api/driver${query}` });
const stored = (uuid: string) => t.seed(async (tx) => (await tx.select().from(drivers).where(eq(drivers.uuid, uuid)))[0] ?? null);
const countAll = () => t.seed(async (tx) => (await tx.select({ n: sql<number>`count(*)::int` }).from(drivers))[0]!.n);

describe('GET /api/driver', () => {
  it('pages active drivers of the organization, 10 by default, sorted by last name, with the counts', async () => {
    const response = await get(user);
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body).toMatchObject({ page: 1, nbOfPages: 3, total: 25, nbInActivity: 25, nbOfArchived: 2 });
    expect(body.data).toHaveLength(10);
    expect(body.data[0]).toMatchObject({ lastName: 'Bernard', documents: [], isArchived: false, archivedAt: null });
    // French order: Écuyer between Dupont and Lambda.
    expect(body.data.slice(0, 4).map((d: { lastName: string }) => d.lastName)).toEqual(['Bernard', 'Dupont', 'Écuyer', 'Lambda 00']);
    expect(response.body).not.toContain('Secret');
  });

  it('gives page 3 the last five, and an empty page beyond', async () => {
    expect((await get(user, '?page=3')).json().data).toHaveLength(5);
    const beyond = (await get(user, '?page=9')).json();
    expect(beyond).toMatchObject({ data: [], page: 9, total: 25 });
  });

  it('withArchived includes archived rows, onlyArchived shows only them; the counts do not move', async () => {
    const withArchived = (await get(user, '?withArchived=true&limit=100')).json();
    expect(withArchived.total).toBe(27);
    const only = (await get(user, '?onlyArchived=true')).json();
    expect(only).toMatchObject({ total: 2, nbInActivity: 25, nbOfArchived: 2 });
    expect(only.data.every((d: { isArchived: boolean }) => d.isArchived)).toBe(true);
  });

  it.each([
    ['ecuyer', ['Écuyer']],
    ['ÉLODIE', ['Écuyer']],
    ['jerome', ['Bernard']],
    ['@martin.fr', ['Bernard', 'Écuyer', 'Martin']],
    ['06 12 34', ['Écuyer']],
    ['0698765432', ['Bernard']],
    ['+33 1 45', ['Martin']],
    ['%', []],
  ])('search %j is accent- and case-insensitive over names, email and phone', async (search, expected) => {
    const body = (await get(user, `?search=${encodeURIComponent(search)}`)).json();
    expect(body.data.map((d: { lastName: string }) => d.lastName)).toEqual(expected);
    expect(body.total).toBe(expected.length);
    expect(body.nbInActivity).toBe(25);
  });

  it.each([
    ['firstName', 'Dupont'],
    ['-firstName', 'Martin'],
    ['-lastName', 'Martin'],
    ['email', 'Écuyer'],
  ])('sorts by %s', async (sortBy, firstLastName) => {
    const body = (await get(user, `?sortBy=${sortBy}`)).json();
    expect(body.data[0].lastName).toBe(firstLastName);
  });

  it('orders namesakes by first name, in both directions', async () => {
    for (const firstName of ['Bruno', 'Alain']) {
      expect((await t.as(user, { method: 'POST', url: '/api/driver', payload: { firstName, lastName: 'Martin' } })).statusCode).toBe(201);
    }
    const ascending = (await get(user, '?search=martin&limit=100')).json().data.filter((d: { lastName: string }) => d.lastName === 'Martin');
    expect(ascending.map((d: { firstName: string }) => d.firstName)).toEqual(['Alain', 'Bruno', 'Zoé']);
    const descending = (await get(user, '?search=martin&sortBy=-lastName&limit=100')).json().data.filter((d: { lastName: string }) => d.lastName === 'Martin');
    expect(descending.map((d: { firstName: string }) => d.firstName)).toEqual(['Zoé', 'Bruno', 'Alain']);
  });

  it('sorts archived rows in too with withArchived, and by creation date', async () => {
    expect((await get(user, '?sortBy=-lastName&withArchived=true')).json().data[0].lastName).toBe('Retraité');
    expect((await t.as(user, { method: 'POST', url: '/api/driver', payload: { firstName: 'Dernier', lastName: 'Arrivé' } })).statusCode).toBe(201);
    expect((await get(user, '?sortBy=-createdAt')).json().data[0].lastName).toBe('Arrivé');
    expect((await get(user, '?sortBy=createdAt')).json().data[0].lastName).not.toBe('Arrivé');
  });

  it.each([
    ['?sortBy=password', 'sortBy', 'Tri invalide'],
    ['?sortBy=-organizationUuid', 'sortBy', 'Tri invalide'],
    ['?limit=1001', 'limit', '1000'],
    ['?limit=0', 'limit', 'au moins 1'],
    ['?page=0', 'page', 'commence à 1'],
    ['?page=deux', 'page', 'nombre'],
    ['?withArchived=oui', 'withArchived', 'true ou false'],
  ])('refuses %s with a 400 naming %s', async (query, path, message) => {
    const response = await get(user, query);
    expect(response.statusCode).toBe(400);
    expect(response.json().details).toContainEqual({ path, message: expect.stringContaining(message) });
  });

  it('accepts limit 1000 (the "all vehicles" fetch uses 999)', async () => {
    expect((await get(user, '?limit=1000')).json().data).toHaveLength(25);
  });

  it('shows another organization nothing of ours, and asks a user without organization to choose one', async () => {
    const body = (await get(outsider)).json();
    expect(body).toMatchObject({ total: 1, nbInActivity: 1, nbOfArchived: 0 });
    expect(body.data[0].lastName).toBe('Bêta');
    const none = await get(orphan);
    expect(none.statusCode).toBe(403);
    expect(none.json().message).toBe("Sélectionnez d'abord une organisation");
  });
});

describe('POST /api/driver', () => {
  it('creates a driver with a normalised phone and lower-case email', async () => {
    const response = await t.as(user, {
      method: 'POST',
      url: '/api/driver',
      payload: { firstName: ' Lucie ', lastName: 'Moreau', email: 'Lucie.Moreau@Martin.FR', phone: '07 11 22 33 44' },
    });
    expect(response.statusCode).toBe(201);
    const body = response.json();
    expect(body).toMatchObject({ firstName: 'Lucie', lastName: 'Moreau', email: 'lucie.moreau@martin.fr', phone: '+33711223344', documents: [] });
    expect(await stored(body.uuid)).toMatchObject({ organizationUuid: orgA.uuid, phone: '+33711223344' });
    const counts = (await get(user)).json();
    expect(counts.nbInActivity).toBe(26);
  });

  it('accepts an empty email and phone as none', async () => {
    const response = await t.as(user, { method: 'POST', url: '/api/driver', payload: { firstName: 'Sans', lastName: 'Contact', email: '', phone: '' } });
    expect(response.statusCode).toBe(201);
    expect(response.json()).toMatchObject({ email: null, phone: null });
  });

  it.each([
    [{ lastName: 'Seul' }, 'firstName', 'Le prénom est obligatoire'],
    [{ firstName: '  ', lastName: 'Blanc' }, 'firstName', 'Le prénom est obligatoire'],
    [{ firstName: 'Léa' }, 'lastName', 'Le nom est obligatoire'],
    [{ firstName: 'Léa', lastName: 'Roux', email: 'lea@' }, 'email', 'Adresse e-mail invalide'],
    [{ firstName: 'Léa', lastName: 'Roux', phone: '06 12' }, 'phone', 'Numéro de téléphone invalide'],
    [{ firstName: 'Léa', lastName: 'Roux', organizationUuid: '00000000-0000-4000-8000-000000000000' }, '', 'Clé non reconnue'],
  ])('refuses %j, writes nothing', async (payload, path, message) => {
    const before = await countAll();
    const response = await t.as(user, { method: 'POST', url: '/api/driver', payload });
    expect(response.statusCode).toBe(400);
    expect(response.json().details).toContainEqual({ path, message: expect.stringContaining(message) });
    expect(await countAll()).toBe(before);
  });
});

describe('PATCH, archive, restore and delete', () => {
  async function fresh() {
    const response = await t.as(user, { method: 'POST', url: '/api/driver', payload: { firstName: 'Temp', lastName: 'Oraire' } });
    return response.json().uuid as string;
  }

  it('edits a driver', async () => {
    const uuid = await fresh();
    const response = await t.as(user, { method: 'PATCH', url: `/api/driver/${uuid}`, payload: { phone: '+33 6 00 00 00 01', email: 'temp@martin.fr' } });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ firstName: 'Temp', phone: '+33600000001', email: 'temp@martin.fr' });
    const bad = await t.as(user, { method: 'PATCH', url: `/api/driver/${uuid}`, payload: { lastName: '' } });
    expect(bad.statusCode).toBe(400);
    expect((await stored(uuid))!.lastName).toBe('Oraire');
  });

  it('archives (the row leaves the active list), then restores', async () => {
    const uuid = await fresh();
    const before = (await get(user)).json();
    const archived = await t.as(user, { method: 'DELETE', url: `/api/driver/${uuid}` });
    expect(archived.statusCode).toBe(200);
    expect(archived.json()).toMatchObject({ uuid, isArchived: true });
    const during = (await get(user)).json();
    expect(during.nbInActivity).toBe(before.nbInActivity - 1);
    expect(during.nbOfArchived).toBe(before.nbOfArchived + 1);
    const restored = await t.as(user, { method: 'POST', url: `/api/driver/restore/${uuid}` });
    expect(restored.statusCode).toBe(200);
    expect(restored.json()).toMatchObject({ uuid, isArchived: false, archivedAt: null });
    expect((await get(user)).json().nbInActivity).toBe(before.nbInActivity);
  });

  it('deletes permanently for an admin only', async () => {
    const uuid = await fresh();
    const denied = await t.as(user, { method: 'DELETE', url: `/api/driver/${uuid}/hard` });
    expect(denied.statusCode).toBe(403);
    expect(await stored(uuid)).not.toBeNull();
    const done = await t.as(admin, { method: 'DELETE', url: `/api/driver/${uuid}/hard` });
    expect(done.statusCode).toBe(204);
    expect(await stored(uuid)).toBeNull();
    expect((await t.as(admin, { method: 'DELETE', url: `/api/driver/${uuid}/hard` })).statusCode).toBe(404);
  });

  it("answers 404 for another organization's driver on every action, changing nothing", async () => {
    const before = await stored(foreignDriver.uuid);
    const calls = [
      { method: 'GET' as const, url: `/api/driver/${foreignDriver.uuid}` },
      { method: 'PATCH' as const, url: `/api/driver/${foreignDriver.uuid}`, payload: { firstName: 'Pirate' } },
      { method: 'DELETE' as const, url: `/api/driver/${foreignDriver.uuid}` },
      { method: 'POST' as const, url: `/api/driver/restore/${foreignDriver.uuid}` },
      { method: 'DELETE' as const, url: `/api/driver/${foreignDriver.uuid}/hard` },
    ];
    for (const call of calls) {
      const response = await t.as(admin, call);
      expect(response.statusCode, `${call.method} ${call.url}`).toBe(404);
      expect(response.json().message).toBe('Conducteur introuvable');
    }
    expect(await stored(foreignDriver.uuid)).toEqual(before);
  });

  it('answers 400 for a malformed uuid and 401 without a token', async () => {
    expect((await t.as(user, { method: 'PATCH', url: '/api/driver/123', payload: {} })).statusCode).toBe(400);
    expect((await t.app.inject({ method: 'GET', url: '/api/driver' })).statusCode).toBe(401);
  });
});

describe('search under row-level security (decisions 004, 006)', () => {
  /**
   * Which plans the tenant role may use for a search, with the per-organization b-trees out of the
   * way (dropped inside a transaction that is rolled back): the trigram index, or only a scan.
   */
  async function tenantSearchPlan(leakproof: boolean) {
    let plan = '';
    await t.database.db
      .transaction(async (tx) => {
        await tx.execute(sql`select set_config('role', session_user, true)`);
        await tx.execute(sql.raw(`alter function pg_catalog.textlike(text, text) ${leakproof ? '' : 'not '}leakproof`));
        await tx.execute(
          sql`drop index drivers_org_created_idx, drivers_org_phone_idx, drivers_org_email_idx, drivers_org_first_name_idx, drivers_org_last_name_idx`,
        );
        await tx.execute(sql`select set_config('role', 'flotte_app', true), set_config('app.org_id', ${orgA.uuid}, true)`);
        await tx.execute(sql`set local enable_seqscan = off`);
        const result = (await tx.execute(
          sql`explain select uuid from ${drivers} where ${drivers.organizationUuid} = ${orgA.uuid} and ${searchTextMatches(drivers.searchText, searchPatterns('ecuyer'))}`,
        )) as { rows: Record<string, string>[] };
        plan = result.rows.map((row) => Object.values(row)[0]).join('\n');
        tx.rollback();
      })
      .catch((error: unknown) => {
        if (!(error instanceof TransactionRollbackError)) throw error;
      });
    return plan;
  }

  it('lets the tenant role use the trigram index (textlike is leakproof), which it could not otherwise', async () => {
    // The trigram index also holds the organization (decision 012): what matters is whether the
    // search itself is looked up in it, not only the organization.
    const searchInIndex = /Index Cond: .*search_text ~~/;
    const leakproofPlan = await tenantSearchPlan(true);
    expect(leakproofPlan).toContain('drivers_org_search_trgm_idx');
    expect(leakproofPlan).toMatch(searchInIndex);
    expect(await tenantSearchPlan(false)).not.toMatch(searchInIndex);
    // The rolled-back experiment left the migration's setting in place.
    const leakproof = await t.seed(async (tx) => {
      const result = (await tx.execute(sql`select proleakproof from pg_proc where oid = 'pg_catalog.textlike(text, text)'::regprocedure`)) as {
        rows: { proleakproof: boolean }[];
      };
      return result.rows[0]!.proleakproof;
    });
    expect(leakproof).toBe(true);
  });
});

describe('counting a large search', () => {
  it('counts up to 1 000 matches and says when there are more', async () => {
    await t.seed(async (tx) => {
      const org = await createOrganization(tx, { title: 'Flotte nationale' });
      const member = await createUser(tx, { email: 'gestion@nationale.fr' });
      await linkUser(tx, org.uuid, member.uuid);
      await tx.execute(sql`insert into ${drivers} (organization_uuid, first_name, last_name) select ${org.uuid}, 'Jean', 'Martin ' || g from generate_series(1, 1500) g`);
      await tx.execute(sql`insert into ${drivers} (organization_uuid, first_name, last_name) select ${org.uuid}, 'Paul', 'Durand ' || g from generate_series(1, 20) g`);
    });
    const token = await t.login('gestion@nationale.fr');
    const many = (await t.as(token, { method: 'GET', url: '/api/driver?search=martin' })).json();
    expect(many).toMatchObject({ total: 1000, totalIsCapped: true, nbOfPages: 100, nbInActivity: 1520 });
    const few = (await t.as(token, { method: 'GET', url: '/api/driver?search=durand' })).json();
    expect(few.total).toBe(20);
    expect(few.totalIsCapped).toBeUndefined();
    // Without a search the maintained count is exact, however large.
    expect((await t.as(token, { method: 'GET', url: '/api/driver' })).json()).toMatchObject({ total: 1520, nbOfPages: 152 });
  });
});

describe('POST /api/driver: a driver that exists already (issue 13)', () => {
  const post = (token: string, payload: object) => t.as(token, { method: 'POST', url: '/api/driver', payload });

  it('answers 409 naming the driver with the same e-mail (any case), and creates a second only with force', async () => {
    const first = await post(user, { firstName: 'Autre', lastName: 'Personne', email: 'ELODIE.ECUYER@martin.fr' });
    expect(first.statusCode).toBe(409);
    expect(first.json()).toEqual({
      statusCode: 409,
      error: 'Conflict',
      message: 'Un conducteur avec cette adresse e-mail existe déjà : Élodie Écuyer',
      details: [
        { path: 'duplicateOf', message: seededDrivers[0] },
        { path: 'email', message: 'Un conducteur avec cette adresse e-mail existe déjà : Élodie Écuyer' },
      ],
    });
    const before = await countAll();
    const forced = await post(user, { firstName: 'Autre', lastName: 'Personne', email: 'elodie.ecuyer@martin.fr', force: true });
    expect(forced.statusCode).toBe(201);
    expect(await countAll()).toBe(before + 1);
  });

  it('answers 409 for the same names (accents and case aside) and phone, in French spelling', async () => {
    const response = await post(admin, { firstName: 'JEROME', lastName: 'bernard', phone: '06 98 76 54 32' });
    expect(response.statusCode).toBe(409);
    expect(response.json().message).toBe('Un conducteur avec ces nom, prénom et téléphone existe déjà : Jérôme Bernard');
    expect(response.json().details[0]).toEqual({ path: 'duplicateOf', message: seededDrivers[1] });
  });

  it('creates a namesake with another phone, and ignores archived drivers and other organizations', async () => {
    expect((await post(user, { firstName: 'Jérôme', lastName: 'Bernard', phone: '06 11 11 11 11' })).statusCode).toBe(201);
    expect((await post(user, { firstName: 'Ancien', lastName: 'Archivé' })).statusCode).toBe(201);
    expect((await post(outsider, { firstName: 'Élodie', lastName: 'Écuyer', email: 'elodie.ecuyer@martin.fr' })).statusCode).toBe(201);
    expect((await post(user, { firstName: 'X', lastName: 'Y', force: 'oui' })).statusCode).toBe(400);
  });
});
