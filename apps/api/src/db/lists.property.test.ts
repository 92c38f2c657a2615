import { type SQL, sql } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import {
  ALPHABET,
  DRIVER_COLUMNS,
  driverScenarios,
  EDGE_TERMS,
  type Scenario,
  SINISTER_COLUMNS,
  sinisterScenarios,
  VEHICULE_COLUMNS,
  vehiculeScenarios,
  WILDCARD_LOOKALIKES,
} from '../../test/list-queries.js';
import {
  collatedValues,
  type CommonQuery,
  driversReference,
  type Envelope,
  expectedAnswer,
  fold,
  type ListReference,
  sinistersReference,
  useCollation,
  vehiculesReference,
} from '../../test/list-reference.js';
import { forceSearchPlan } from './list-kit.js';
import { type Organization, seedWorld, type World } from '../../test/list-world.js';
import { createTestApp, type TestContext } from '../../test/test-app.js';

/**
 * Issue 22, "results must not change": every register list answers exactly what a plain
 * reference (test/list-reference.ts) computes from the rows the test inserted — rows and their
 * order, total, pages, archive counts — for generated organizations, terms, filters, sorts and
 * pages, on PostgreSQL and on PGlite, through the page cache and afresh. No answer ever holds
 * another organization's row.
 *
 * Explore: LIST_PROPERTY_SEED=<seed> (data and queries), LIST_PROPERTY_RUNS=<runs per list>. Replay a
 * failure: the same seed, and LIST_PROPERTY_PATH=<the path fast-check printed> with `-t` naming that test.
 */

const SEED = Number(process.env.LIST_PROPERTY_SEED ?? 22);
// PGlite answers a list about four times slower here: fewer runs keep it under a minute.
const RUNS = Number(process.env.LIST_PROPERTY_RUNS ?? (inject('testDb').kind === 'pglite' ? 25 : 60));

/** Seeding and each test below send a few hundred statements or requests: room for a loaded machine (PGlite on 2 busy cores). */
const LONG = 120_000;

let t: TestContext;
let world: World;

async function select<T>(query: SQL): Promise<T[]> {
  const result = await t.seed((tx) => tx.execute(query));
  return (result as unknown as { rows: T[] }).rows;
}

const asJson = (values: string[]) => sql`json_array_elements_text(${JSON.stringify(values)}::json) as v(value)`;

beforeAll(async () => {
  t = await createTestApp();
  world = await seedWorld(t, SEED);
  // Text sort keys are compared in the database's collation (C.UTF-8 here): the reference asks it.
  const ordered = await select<{ value: string }>(sql`select value from ${asJson(collatedValues(world))} order by value`);
  useCollation(new Map(ordered.map((row, i) => [row.value, i])));
}, LONG);
afterAll(() => t?.close());

/** The query string as a browser sends it; absent parameters are left out. */
function urlOf(path: string, query: object): string {
  const parameters = Object.entries(query).filter(([, value]) => value !== undefined);
  return parameters.length === 0 ? path : `${path}?${parameters.map(([key, value]) => `${key}=${encodeURIComponent(String(value))}`).join('&')}`;
}

type Answer = { data: { uuid: string; vehicule?: { uuid: string } | null; driver?: { uuid: string } | null }[] } & Envelope & Record<string, unknown>;

/**
 * Asks the list as the organization's user and compares the answer with the reference; returns
 * the expected envelope. `fresh` sends `Cache-Control: no-cache` (computed afresh), otherwise the
 * page cache may serve it.
 */
async function check<Row, Q extends CommonQuery>(list: ListReference<Row, Q, unknown>, organization: Organization, query: Q, fresh: boolean): Promise<Envelope> {
  const url = urlOf(list.path, query);
  // Both ways a search can read (decision 012), whatever the organization's size: one query in two each.
  const plan = [...url].reduce((sum, c) => sum + c.charCodeAt(0), 0) % 2 === 0 ? 'scan' : 'trigram';
  forceSearchPlan(plan);
  const what = `${organization.name} GET ${url}${fresh ? ' (no-cache)' : ''} [plan ${plan}, seed ${SEED}]`;
  const response = await t.as(organization.token, { method: 'GET', url, headers: fresh ? { 'cache-control': 'no-cache' } : {} });
  forceSearchPlan(undefined);
  expect(response.statusCode, `${what}: ${response.body}`).toBe(200);
  const { data, ...envelope } = response.json<Answer>();

  // Another organization's rows never appear, whatever the reference says.
  const linked = data.flatMap((item) => [item.uuid, item.vehicule?.uuid, item.driver?.uuid]).filter((uuid): uuid is string => Boolean(uuid));
  expect(linked.filter((uuid) => !organization.uuids.has(uuid)), `${what}: rows of another organization`).toEqual([]);

  const expected = expectedAnswer(list, world, organization, query);
  expect(data.map((item) => item.uuid), `${what}: rows and their order`).toEqual(expected.items.map((item) => (item as { uuid: string }).uuid));
  expect(data, `${what}: items`).toStrictEqual(expected.items);
  expect(envelope, `${what}: envelope`).toStrictEqual(expected.envelope);
  return expected.envelope;
}

/** Page 1 (twice without the header: the second is the cache's), the last page and the one past it. */
async function checkPages<Row, Q extends CommonQuery>(list: ListReference<Row, Q, unknown>, organization: Organization, query: Q, fresh: boolean) {
  const { nbOfPages } = await check(list, organization, query, fresh);
  if (!fresh) await check(list, organization, query, false);
  if (nbOfPages > 1) await check(list, organization, { ...query, page: nbOfPages }, fresh);
  await check(list, organization, { ...query, page: nbOfPages + 1 }, fresh);
}

/** The property: a generated query answers as the reference for its organization, and for another one asking the same. */
async function holds<Row, Q extends CommonQuery>(list: ListReference<Row, Q, unknown>, scenarios: fc.Arbitrary<Scenario<Q>>, seed: number) {
  await fc.assert(
    fc.asyncProperty(scenarios, async ({ organization, other, query, fresh }) => {
      await checkPages(list, world.organizations[organization]!, query, fresh);
      await check(list, world.organizations[other]!, query, !fresh);
    }),
    { numRuns: RUNS, seed, ...(process.env.LIST_PROPERTY_PATH ? { path: process.env.LIST_PROPERTY_PATH } : {}) },
  );
}

/** Hand-picked cases, one in two afresh, the others through the page cache. */
async function holdsFor<Row, Q extends CommonQuery>(list: ListReference<Row, Q, unknown>, cases: { organization: Organization; query: Q }[]) {
  for (const [i, { organization, query }] of cases.entries()) await checkPages(list, organization, query, i % 2 === 0);
}

const organization = (name: string) => world.organizations.find((o) => o.name === name)!;

/** Cases every list shares: each edge term, each sort both ways (descending with a search, archived included), each archive mode, tiny and empty registers, page sizes. */
function sharedCases<Q extends CommonQuery>(columns: readonly string[]): { organization: Organization; query: Q }[] {
  const large = organization('grande');
  const queries: CommonQuery[] = [
    ...EDGE_TERMS.map((search) => ({ search, limit: 7 })),
    ...columns.flatMap((column) => [{ sortBy: column, limit: 9 }, { sortBy: `-${column}`, search: 'e', withArchived: 'true' as const, limit: 4 }]),
    { withArchived: 'true' }, { onlyArchived: 'true' }, { withArchived: '1', onlyArchived: '1' }, { withArchived: 'false', onlyArchived: '0' },
    { limit: 1 }, { limit: 50, withArchived: 'true' },
  ];
  return [
    ...queries.map((query) => ({ organization: large, query: query as Q })),
    ...['vide', 'petite', 'moyenne'].flatMap((name) => [{}, { withArchived: 'true' }, { search: 'e', limit: 2 }].map((query) => ({ organization: organization(name), query: query as Q }))),
  ];
}

describe('the reference', () => {
  it('folds the seeded values and the terms\u2019 characters as lower(f_unaccent()) does on this database', async () => {
    const texts = world.organizations.flatMap((o) => [
      ...o.drivers.flatMap((d) => [d.firstName, d.lastName, d.email, d.phone]),
      ...o.vehicules.flatMap((v) => [v.immatriculation, v.brand, v.model]),
      ...o.sinisters.flatMap((s) => [s.sinisterIntermediateRef, s.city, s.immatriculation]),
    ]);
    const values = [...new Set([...texts, ...ALPHABET, ...EDGE_TERMS, ...WILDCARD_LOOKALIKES].filter((v): v is string => v !== null).flatMap((v) => [v, v.toLowerCase(), v.toUpperCase()]))];
    const folded = await select<{ value: string; folded: string }>(sql`select value, lower(f_unaccent(value)) as folded from ${asJson(values)}`);
    expect(folded.length).toBe(values.length);
    expect(folded.filter((row) => fold(row.value) !== row.folded)).toEqual([]);
  });

  it('seeds organizations of different sizes with every kind of row', () => {
    const large = organization('grande');
    expect(world.organizations.map((o) => o.vehicules.length)).toEqual([0, 3, 60, 400]);
    expect(large.vehicules.some((v) => v.immatriculation === null)).toBe(true);
    expect(large.sinisters.some((s) => s.vehiculeUuid === null && s.immatriculation !== null)).toBe(true);
    expect(new Set(large.sinisters.map((s) => s.responsibilityRate))).toEqual(new Set([0, 25, 50, 75, 100, null]));
    expect(new Set(large.sinisters.map((s) => s.status))).toEqual(new Set(['open', 'inProgress', 'closed', 'refused']));
    expect(large.sinisters.some((s) => s.paidCents > 0) && large.sinisters.some((s) => s.reserveCents > 0)).toBe(true);
    expect(large.drivers.filter((d) => d.archivedAt !== null).length).toBeGreaterThan(10);
  });
});

describe('GET /api/driver answers as the reference', () => {
  it('for hand-picked terms, sorts, archive modes and page edges', async () => {
    await holdsFor(driversReference, sharedCases(DRIVER_COLUMNS));
  }, LONG);

  it(`for generated queries (seed ${SEED})`, async () => {
    await holds(driversReference, driverScenarios(world), SEED);
  }, LONG);
});

describe('GET /api/vehicule answers as the reference', () => {
  it('for hand-picked terms, sorts, archive modes and page edges', async () => {
    await holdsFor(vehiculesReference, sharedCases(VEHICULE_COLUMNS));
  }, LONG);

  it('for each filter', async () => {
    const large = organization('grande');
    const left = large.vehicules.find((v) => v.entryDate && v.exitDate)!;
    const filters = [
      ...['VP', 'VUL', 'AUTRE'].map((types) => ({ types })), { types: 'VP,PL,TRACTEUR' }, { types: ' VUL , AUTRE ' }, { types: ',' }, { types: '' },
      { start: '2025-01-01' }, { end: '2021-06-30' }, { start: '2020-01-01', end: '2026-12-31', withArchived: 'true' as const },
      // Bounds equal to a vehicle's dates: both ends are included.
      { start: left.exitDate!, withArchived: 'true' as const }, { end: left.entryDate!, withArchived: 'true' as const }, { start: left.exitDate!, end: left.exitDate! },
      { types: 'VP', start: '2024-06-01', search: 'ren', sortBy: '-brand' },
    ];
    await holdsFor(vehiculesReference, filters.map((query) => ({ organization: large, query })));
  }, LONG);

  it(`for generated queries (seed ${SEED})`, async () => {
    await holds(vehiculesReference, vehiculeScenarios(world), SEED + 1);
  }, LONG);
});

describe('GET /api/sinister answers as the reference', () => {
  it('for hand-picked terms, sorts, archive modes and page edges', async () => {
    await holdsFor(sinistersReference, sharedCases(SINISTER_COLUMNS));
  }, LONG);

  it('for each filter', async () => {
    const large = organization('grande');
    const claim = large.sinisters.find((s) => s.vehiculeUuid && s.driverUuid && s.guaranteeUuid)!;
    const filters = [
      { showDeclared: 'true' as const }, { showNotDeclared: 'true' as const }, { showDeclared: 'true' as const, showNotDeclared: 'true' as const }, { showDeclared: 'false' as const },
      { responsible: 'me' as const }, { responsible: 'other' as const },
      { hasHumanInjury: 'true' as const }, { damagedVehicule: '1' as const }, { isThirdImplicated: 'true' as const }, { hasHumanInjury: 'false' as const },
      { garantee: claim.guaranteeUuid! }, { vehicule: claim.vehiculeUuid! }, { driver: claim.driverUuid! }, { vehicule: organization('moyenne').vehicules[0]!.uuid },
      { startDate: '2024-01-01' }, { endDate: '2019-12-31' }, { startDate: '2022-03-01', endDate: '2022-03-31' }, { startDate: claim.sinisterDate, endDate: claim.sinisterDate },
      // A period and the declared state: their total cost comes from the daily totals.
      { showNotDeclared: 'true' as const, startDate: '2021-01-01', endDate: '2025-12-31' }, { showDeclared: 'true' as const, endDate: claim.sinisterDate },
      { responsible: 'me' as const, damagedVehicule: 'true' as const, showDeclared: '1' as const, startDate: '2021-01-01', search: 'sin', sortBy: 'totalCost' },
      ...(['open', 'inProgress', 'closed', 'refused'] as const).map((status) => ({ status })),
      { status: 'closed' as const, withArchived: 'true' as const, search: 'sin' }, { status: 'open' as const, onlyArchived: 'true' as const, sortBy: '-totalCost' },
    ];
    await holdsFor(sinistersReference, filters.map((query) => ({ organization: large, query })));
  }, LONG);

  it(`for generated queries (seed ${SEED})`, async () => {
    await holds(sinistersReference, sinisterScenarios(world), SEED + 2);
  }, LONG);
});

/**
 * Full-width ％ ﹪ ＿ ＼ ∖ ﹨: unaccent folds them into '%', '_' and '\', which must then match
 * themselves, never act as LIKE's wildcards or escape (the search escapes after folding).
 */
describe('full-width %, _ and \\ in a search term', () => {
  it.each([
    ['vehicles', '％'],
    ['drivers', 'e＿'],
    ['claims', '1％'],
    ['claims', '＼'],
  ])('%s searched for %s match what it folds to, not a wildcard', async (register, search) => {
    const large = organization('grande');
    if (register === 'vehicles') await check(vehiculesReference, large, { search }, true);
    if (register === 'drivers') await check(driversReference, large, { search }, true);
    if (register === 'claims') await check(sinistersReference, large, { search }, true);
  });
});
