import { and, eq, notInArray, type SQL, sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { drivers } from '../db/schema/drivers.js';
import { registerCounts } from '../db/schema/registers.js';
import { vehicules } from '../db/schema/vehicules.js';
import { createDrivers, createOrganization, createSinisters, createUser, createVehicules, linkUser } from '../seed/factories.js';
import { createTestApp, type TestContext } from '../../test/test-app.js';
import { attachObservations, observationsOf } from '../platform/metrics/observations.js';
import { cachedPage, pageCacheSize } from './page-cache.js';

/**
 * A list read again is served from the server's copy while the registers it shows have not moved
 * (decision 007). These tests tell a copy from a fresh read by changing rows *behind* the version:
 * a superuser write with triggers off (session_replication_role = replica), which no real write
 * can do. Every real write, from this server or any other, moves the version.
 */

let t: TestContext;
let orgA: { uuid: string };
let orgB: { uuid: string };
let userA: string;
let userB: string;
let vehicule: { uuid: string };
let driver: { uuid: string };
let claimDriver: { uuid: string };
let seededDrivers: string[];

beforeAll(async () => {
  t = await createTestApp();
  ({ orgA, orgB, vehicule, driver, claimDriver, seededDrivers } = await t.seed(async (tx) => {
    const orgA = await createOrganization(tx, { title: 'Transports Alpha' });
    const orgB = await createOrganization(tx, { title: 'Bêta BTP' });
    const a = await createUser(tx, { email: 'gestion@alpha.fr' });
    const b = await createUser(tx, { email: 'gestion@beta.fr' });
    await linkUser(tx, orgA.uuid, a.uuid, 'ADMIN');
    await linkUser(tx, orgB.uuid, b.uuid);
    const seeded = await createDrivers(tx, orgA.uuid, [
      { firstName: 'Élodie', lastName: 'Bernard' },
      { firstName: 'Jérôme', lastName: 'Dupont' },
      ...Array.from({ length: 120 }, (_, i) => ({ firstName: 'Paul', lastName: `Lambda ${String(i).padStart(3, '0')}` })),
    ]);
    const [driver] = seeded;
    const [claimDriver] = await createDrivers(tx, orgA.uuid, [{ firstName: 'Zoé', lastName: 'Zorro' }]);
    await createDrivers(tx, orgB.uuid, [{ firstName: 'Secret', lastName: 'Bêta' }]);
    const [vehicule] = await createVehicules(tx, orgA.uuid, [{ immatriculation: 'AB-123-CD', brand: 'Renault', model: 'Master' }]);
    await createSinisters(tx, orgA.uuid, [{ vehiculeUuid: vehicule!.uuid, driverUuid: claimDriver!.uuid, sinisterDate: '2026-02-03', city: 'Lyon' }]);
    return { orgA, orgB, vehicule: vehicule!, driver: driver!, claimDriver: claimDriver!, seededDrivers: [...seeded, claimDriver!].map((d) => d.uuid) };
  }));
  userA = await t.login('gestion@alpha.fr');
  userB = await t.login('gestion@beta.fr');
});
afterAll(() => t.close());
/**
 * The tests rename seeded rows (some behind the version): put them back as seeded with real writes,
 * which move the versions, and take out the drivers a test added, even after a failure halfway.
 */
afterEach(() =>
  t.seed(async (tx) => {
    await tx.update(drivers).set({ lastName: 'Bernard' }).where(eq(drivers.uuid, driver.uuid));
    await tx.update(drivers).set({ phone: null }).where(eq(drivers.lastName, 'Dupont'));
    await tx.update(drivers).set({ lastName: 'Lambda 000' }).where(eq(drivers.lastName, 'Lambda zéro'));
    await tx.update(drivers).set({ lastName: 'Zorro' }).where(eq(drivers.uuid, claimDriver.uuid));
    await tx.update(vehicules).set({ immatriculation: 'AB123CD' }).where(eq(vehicules.uuid, vehicule.uuid));
    await tx.delete(drivers).where(and(eq(drivers.organizationUuid, orgA.uuid), notInArray(drivers.uuid, seededDrivers)));
  }),
);

const list = async (token: string, url: string, headers: Record<string, string> = {}) => {
  const response = await t.as(token, { method: 'GET', url, headers });
  expect(response.statusCode).toBe(200);
  return response.json();
};
const lastNames = (page: { data: { lastName: string }[] }) => page.data.map((d) => d.lastName);

/** Changes rows without moving any register version (triggers off): only a copy can still show the old rows. */
async function behindTheVersion(query: SQL) {
  await t.database.db.transaction(async (tx) => {
    await tx.execute(sql`select set_config('role', session_user, true)`);
    await tx.execute(sql`set local session_replication_role = replica`);
    await tx.execute(query);
  });
}

const versionOf = (organizationUuid: string, register: 'drivers' | 'vehicules' | 'sinisters') =>
  t.seed(async (tx) => {
    const [row] = await tx
      .select({ version: registerCounts.version })
      .from(registerCounts)
      .where(sql`${registerCounts.organizationUuid} = ${organizationUuid} and ${registerCounts.register} = ${register}`);
    return row?.version ?? 0;
  });

describe('a list read again', () => {
  it('is served from the copy while nothing was written, and computed again after a write made anywhere', async () => {
    const first = await list(userA, '/api/driver');
    expect(lastNames(first).slice(0, 2)).toEqual(['Bernard', 'Dupont']);

    await behindTheVersion(sql`update ${drivers} set last_name = 'Bernardin' where ${drivers.uuid} = ${driver.uuid}`);
    const again = await list(userA, '/api/driver');
    expect(again).toEqual(first);
    // A hard reload (Cache-Control: no-cache) computes the page afresh.
    expect(lastNames(await list(userA, '/api/driver', { 'cache-control': 'no-cache' })).slice(0, 2)).toEqual(['Bernardin', 'Dupont']);

    // A write by another server (straight to the database here) moves the version: the next read sees it.
    await t.seed((tx) => tx.update(drivers).set({ phone: '+33612345678' }).where(eq(drivers.lastName, 'Dupont')));
    const fresh = await list(userA, '/api/driver');
    expect(fresh.data.slice(0, 2).map((d: { lastName: string; phone: string | null }) => [d.lastName, d.phone])).toEqual([
      ['Bernardin', null],
      ['Dupont', '+33612345678'],
    ]);
  });

  it('gives the same page from the copy as computed afresh', async () => {
    for (const url of ['/api/driver?search=lambda&sortBy=-lastName&page=2', '/api/vehicule', '/api/sinister?startDate=2026-01-01']) {
      const computed = await list(userA, url, { 'cache-control': 'no-cache' });
      expect(await list(userA, url)).toEqual(computed);
      expect(await list(userA, url)).toEqual(computed);
    }
  });

  it('is kept per organization and per query', async () => {
    const ascending = lastNames(await list(userA, '/api/driver?search=e'));
    expect(ascending.length).toBeGreaterThan(1);
    const otherOrganization = await list(userB, '/api/driver?search=e');
    expect(lastNames(otherOrganization)).toEqual(['Bêta']);
    const otherQuery = await list(userA, '/api/driver?search=e&sortBy=-lastName');
    expect(lastNames(otherQuery)).toEqual([...ascending].reverse());
  });

  it('shows at once in the claims list a vehicle\u2019s new plate and a driver\u2019s new name', async () => {
    const before = await list(userA, '/api/sinister');
    expect(before.data[0]).toMatchObject({ immatriculation: 'AB123CD', vehicule: { immatriculation: 'AB123CD' }, driver: { uuid: claimDriver.uuid, lastName: 'Zorro' } });

    const patched = await t.as(userA, { method: 'PATCH', url: `/api/vehicule/${vehicule.uuid}`, payload: { immatriculation: 'EF-456-GH' } });
    expect(patched.statusCode).toBe(200);
    expect((await list(userA, '/api/sinister')).data[0].vehicule.immatriculation).toBe('EF456GH');

    const renamed = await t.as(userA, { method: 'PATCH', url: `/api/driver/${claimDriver.uuid}`, payload: { lastName: 'Zorro-Leroy' } });
    expect(renamed.statusCode).toBe(200);
    expect((await list(userA, '/api/sinister')).data[0].driver.lastName).toBe('Zorro-Leroy');
  });

  it('is not kept for pages of more than 200 rows (a select list of the whole fleet)', async () => {
    const url = '/api/driver?limit=250';
    expect(lastNames(await list(userA, url))).toContain('Lambda 000');
    await behindTheVersion(sql`update ${drivers} set last_name = 'Lambda zéro' where ${drivers.lastName} = 'Lambda 000'`);
    const names = lastNames(await list(userA, url));
    expect(names).toContain('Lambda zéro');
    expect(names).not.toContain('Lambda 000');
  });
});

describe('register versions (migration 0008)', () => {
  it('move with every insert, update and delete, for the organization written only', async () => {
    const start = await versionOf(orgA.uuid, 'drivers');
    const other = await versionOf(orgB.uuid, 'drivers');
    const [added] = await t.seed((tx) => createDrivers(tx, orgA.uuid, [{ lastName: 'Nouveau' }]));
    const afterInsert = await versionOf(orgA.uuid, 'drivers');
    expect(afterInsert).toBeGreaterThan(start);
    await t.seed((tx) => tx.update(drivers).set({ email: 'nouveau@alpha.fr' }).where(eq(drivers.uuid, added!.uuid)));
    const afterUpdate = await versionOf(orgA.uuid, 'drivers');
    expect(afterUpdate).toBeGreaterThan(afterInsert);
    await t.seed((tx) => tx.delete(drivers).where(eq(drivers.uuid, added!.uuid)));
    const afterDelete = await versionOf(orgA.uuid, 'drivers');
    expect(afterDelete).toBeGreaterThan(afterUpdate);
    // A statement that changes no row changes nothing.
    await t.seed((tx) => tx.update(drivers).set({ email: 'personne@alpha.fr' }).where(eq(drivers.lastName, 'Personne')));
    expect(await versionOf(orgA.uuid, 'drivers')).toBe(afterDelete);
    expect(await versionOf(orgB.uuid, 'drivers')).toBe(other);
  });
});

describe('cachedPage', () => {
  type Page = { data: { uuid: string; driver: { lastName: string } | null }[] };
  const page = (lastName: string): Page => ({ data: [{ uuid: 'u1', driver: { lastName } }] });
  /** A source whose version and rows the test sets, counting the reads. */
  function source(initial: { version: string; lastName: string }) {
    const state = { ...initial, reads: 0 };
    return {
      state,
      version: async () => state.version,
      read: async () => {
        state.reads++;
        return { version: state.version, rows: [state.lastName], total: 1, totalIsCapped: false, counts: { nbInActivity: 1, nbOfArchived: 0 } };
      },
    };
  }
  const build = (result: { rows: string[] }) => page(result.rows[0]!);
  /** A database the cache is kept for (the source reads nothing from it). */
  const db = () => ({}) as never;
  /** The page of `query` as the list kit asks for it. */
  const cached = (database: never, query: { limit: number; page?: number }, fresh: boolean, s: ReturnType<typeof source>) =>
    cachedPage(database, { key: `drivers\u0000org\u0000${JSON.stringify(query)}`, limit: query.limit, fresh, version: s.version, read: s.read, build }).then(
      (kept) => kept.page,
    );

  it('serves the copy while the version holds, reads again when it moves or when asked to', async () => {
    const database = db();
    const s = source({ version: '1', lastName: 'Bernard' });
    const get = (fresh = false) => cached(database, { limit: 10 }, fresh, s);
    const first = await get();
    expect(await get()).toBe(first);
    expect(s.state.reads).toBe(1);
    s.state.lastName = 'Bernardin';
    expect((await get()).data[0]!.driver!.lastName).toBe('Bernard');
    expect((await get(true)).data[0]!.driver!.lastName).toBe('Bernardin');
    s.state.version = '2';
    s.state.lastName = 'Dupont';
    expect((await get()).data[0]!.driver!.lastName).toBe('Dupont');
    expect(s.state.reads).toBe(3);
  });

  it('freezes a kept page to its last row, and keeps none of more than 200 rows', async () => {
    const database = db();
    const kept = await cached(database, { limit: 10 }, false, source({ version: '1', lastName: 'Bernard' }));
    expect(Object.isFrozen(kept.data[0]!.driver)).toBe(true);
    expect(() => {
      (kept.data[0]!.driver as { lastName: string }).lastName = 'Autre';
    }).toThrow(TypeError);
    const big = source({ version: '1', lastName: 'Bernard' });
    await cached(database, { limit: 250 }, false, big);
    const again = await cached(database, { limit: 250 }, false, big);
    expect(big.state.reads).toBe(2);
    expect(Object.isFrozen(again)).toBe(false);
  });

  it('keeps at most 2 000 pages, the least recently used out first', async () => {
    const database = db();
    const s = source({ version: '1', lastName: 'Bernard' });
    const get = (i: number) => cached(database, { limit: 10, page: i }, false, s);
    await get(0);
    for (let i = 1; i <= 2000; i++) {
      await get(i);
      if (i % 500 === 0) await get(0); // page 0 stays in use
    }
    const reads = s.state.reads;
    await get(0);
    expect(s.state.reads).toBe(reads);
    await get(1);
    expect(s.state.reads).toBe(reads + 1);
  });

  it('reports its hits, misses and evictions to the metrics attached to its database, and its size', async () => {
    const database = db();
    const seen = { hit: 0, miss: 0, evicted: 0 };
    const detach = attachObservations(database, {
      ...observationsOf({}),
      pageCache: (result) => void seen[result]++,
      pageCacheEvicted: (count) => void (seen.evicted += count),
    });
    try {
      const s = source({ version: '1', lastName: 'Bernard' });
      const get = (i: number, fresh = false) => cached(database, { limit: 10, page: i }, fresh, s);
      await get(0);
      await get(0);
      await get(0, true);
      // More than 200 rows: never kept, so neither a hit nor a miss.
      await cached(database, { limit: 250 }, false, s);
      expect(seen).toEqual({ hit: 1, miss: 2, evicted: 0 });
      expect(pageCacheSize(database)).toEqual({ entries: 1, bytes: 2 * 2048 });
      for (let i = 1; i <= 2001; i++) await get(i);
      expect(seen.evicted).toBe(2);
      expect(pageCacheSize(database).entries).toBe(2000);
    } finally {
      detach();
    }
  });
});
