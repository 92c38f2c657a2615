import { sql } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import * as reference from '../../../test/dashboard-reference.js';
import { addDays, type DashboardOrganization, type DashboardWorld, randomFrom, seedDashboardWorld, type Step, step } from '../../../test/dashboard-world.js';
import { createTestApp, type TestContext } from '../../../test/test-app.js';
import { addMonths, resolveWindow } from './dashboard.service.js';

/**
 * Issue 12, "without changing any figure": the dashboard reads daily rollups kept by triggers
 * (decision 029); every figure and breakdown it answers must equal what a
 * plain query over the registers computes (test/dashboard-reference.ts, the way decision 022 read
 * them), for generated windows and declared filters, after generated writes of every kind —
 * through the API and by statements spanning several organizations — on PostgreSQL and PGlite.
 * The rollups themselves must equal their recomputation from the registers after every round,
 * and an organization never counts another's claims or vehicles (the reference names its own).
 *
 * Explore: DASHBOARD_PROPERTY_SEED=<seed>, DASHBOARD_PROPERTY_RUNS=<windows per round>,
 * DASHBOARD_PROPERTY_STEPS=<writes per round>.
 */

const SEED = Number(process.env.DASHBOARD_PROPERTY_SEED ?? 12);
const PGLITE = inject('testDb').kind === 'pglite';
// PGlite answers several times slower here: fewer windows and writes keep it near a minute.
const RUNS = Number(process.env.DASHBOARD_PROPERTY_RUNS ?? (PGLITE ? 8 : 20));
const STEPS = Number(process.env.DASHBOARD_PROPERTY_STEPS ?? (PGLITE ? 40 : 70));
const ROUNDS = 3;
const LONG = 240_000;

let t: TestContext;
let world: DashboardWorld;
let run: ReturnType<typeof reference.runAsSystem>;
const r = randomFrom(SEED);
/** The kinds of write the rounds went through. */
const kinds = new Set<string>();

beforeAll(async () => {
  t = await createTestApp();
  world = await seedDashboardWorld(t, SEED);
  run = reference.runAsSystem(t.seed);
}, LONG);
afterAll(() => t?.close());

function urlOf(path: string, query: Record<string, string | boolean | undefined>) {
  const parameters = Object.entries(query).filter(([, value]) => value !== undefined);
  return parameters.length === 0 ? path : `${path}?${parameters.map(([key, value]) => `${key}=${encodeURIComponent(String(value))}`).join('&')}`;
}

async function get(organization: DashboardOrganization, url: string): Promise<unknown> {
  const response = await t.as(organization.token, { method: 'GET', url });
  expect(response.statusCode, `${organization.name} GET ${url}: ${response.body}`).toBe(200);
  return response.json();
}

/** Every figure over one window, as the product answers it and as the reference computes it. */
async function checkWindow(organization: DashboardOrganization, w: reference.Window, query: Record<string, string | boolean | undefined>) {
  const what = (path: string) => `${organization.name} ${urlOf(path, query)} [seed ${SEED}]`;
  const expectFigure = async (path: string, expected: unknown) => expect(await get(organization, urlOf(`/api/dashboard/${path}`, query)), what(path)).toStrictEqual(expected);
  const o = organization.uuid;
  await expectFigure('loss-ratio', await reference.lossRatio(run, o, w));
  await expectFigure('claims-by-month', await reference.monthly(run, o, w));
  await expectFigure('claims-by-guarantee', await reference.byGuarantee(run, o, w));
  await expectFigure('claims-by-responsibility', await reference.byResponsibility(run, o, w));
  await expectFigure('claims-by-category', await reference.byCategory(run, o, w));
  const last12 = { startDate: addDays(addMonths(w.endDate, -12), 1), endDate: w.endDate, isDeclared: w.isDeclared };
  await expectFigure('top-drivers', await reference.topDrivers(run, o, last12));
  // The days the fleet is counted on are the service's (first day, each month's end, last day); each count is the reference's.
  const fleet = (await get(organization, urlOf('/api/dashboard/fleet-size', query))) as { date: string; vehicles: number }[];
  expect(fleet[0]?.date, what('fleet-size')).toBe(w.startDate);
  expect(fleet.at(-1)?.date, what('fleet-size')).toBe(w.endDate);
  const expectedFleet = [];
  for (const { date } of fleet) expectedFleet.push({ date, vehicles: await reference.fleetOn(run, o, date) });
  expect(fleet, what('fleet-size')).toStrictEqual(expectedFleet);
}

/** The figures that take no window: frequency of each period (declared or not), half-differences. */
async function checkPeriods(organization: DashboardOrganization) {
  const o = organization.uuid;
  for (const period of await reference.periods(run, o)) {
    for (const isDeclared of [undefined, true, false]) {
      const url = urlOf('/api/dashboard/claim-frequency', { indicator: period.uuid, isDeclared });
      expect(await get(organization, url), `${organization.name} ${url}`).toStrictEqual(await reference.claimFrequency(run, o, period, isDeclared));
    }
  }
  const halves = await reference.halfDifferences(run, o, world.today);
  expect(await get(organization, '/api/dashboard/half-differences'), `${organization.name} half-differences`).toStrictEqual(halves);
  expect(await get(organization, '/api/dashboard/current-half-difference'), `${organization.name} current half-difference`).toStrictEqual(halves.find((h) => h.isCurrent) ?? null);
  expect(await get(organization, '/api/dashboard/claim-frequency'), `${organization.name} current frequency`).toStrictEqual(
    await reference.claimFrequency(run, o, (await reference.periods(run, o)).find((p) => p.startDate <= world.today && world.today <= p.endDate)!, undefined),
  );
}

/** Rollup rows as the migration computes them from the registers, against the rows the triggers kept. */
async function checkRollupsAgainstRegisters() {
  const [claims] = await run<{ kept_only: number; computed_only: number }>(sql`
    with computed as (
      select c.organization_uuid,
             case grouping(c.guarantee_uuid, c.responsibility, c.vehicule_type) when 7 then 'total' when 3 then 'guarantee' when 5 then 'responsibility' else 'category' end as breakdown,
             c.sinister_date as day, c.is_declared, c.guarantee_uuid, c.responsibility, c.vehicule_type, count(*)::int as claims, sum(c.cost)::bigint as cost_cents
      from (select s.organization_uuid, s.sinister_date, s.is_declared, s.guarantee_uuid,
                   case when s.responsibility_rate is null then 'unknown' when s.responsibility_rate = 0 then 'notAtFault' when s.responsibility_rate = 100 then 'atFault' else 'shared' end as responsibility,
                   v.type as vehicule_type, s.paid_cents + s.reserve_cents as cost
            from sinisters s left join vehicules v on v.uuid = s.vehicule_uuid and v.organization_uuid = s.organization_uuid
            where s.archived_at is null) c
      group by c.organization_uuid, c.sinister_date, c.is_declared, grouping sets ((), (c.guarantee_uuid), (c.responsibility), (c.vehicule_type))
    ),
    kept as (select organization_uuid, breakdown, day, is_declared, guarantee_uuid, responsibility, vehicule_type, claims, cost_cents from claim_daily_totals)
    select (select count(*)::int from (select * from kept except select * from computed) x) as kept_only,
           (select count(*)::int from (select * from computed except select * from kept) x) as computed_only`);
  expect(claims, 'claim_daily_totals against the claims').toEqual({ kept_only: 0, computed_only: 0 });
  const [fleet] = await run<{ kept_only: number; computed_only: number }>(sql`
    with computed as (
      select m.organization_uuid, m.day, sum(m.entered)::int as entered, sum(m.gone)::int as gone from (
        select organization_uuid, coalesce(entry_date, date '0001-01-01') as day, 1 as entered, 0 as gone from vehicules where immatriculation is not null
        union all
        select organization_uuid, coalesce(exit_date, archived_at::date) + 1, 0, 1 from vehicules
        where immatriculation is not null and coalesce(exit_date, archived_at::date) is not null
      ) m group by 1, 2
    ),
    kept as (select organization_uuid, day, entered, gone from fleet_daily_movements)
    select (select count(*)::int from (select * from kept except select * from computed) x) as kept_only,
           (select count(*)::int from (select * from computed except select * from kept) x) as computed_only`);
  expect(fleet, 'fleet_daily_movements against the vehicles').toEqual({ kept_only: 0, computed_only: 0 });
}

/** Windows from before the first claim to after the current period, one day to several years long. */
let days: string[] = [];
const DAYS = () => (days.length > 0 ? days : (days = reference.daysOf(world.firstDay, `${Number(world.today.slice(0, 4))}-12-31`, 60)));
const windows = () =>
  fc.record({
    organization: fc.nat({ max: world.organizations.length - 1 }),
    start: fc.nat({ max: DAYS().length - 1 }),
    length: fc.oneof(fc.nat({ max: 3 }), fc.nat({ max: 62 }), fc.nat({ max: 1_600 })),
    isDeclared: fc.constantFrom(undefined, true, false),
  });

async function checkRound(round: number) {
  await checkRollupsAgainstRegisters();
  for (const organization of world.organizations) await checkPeriods(organization);
  // Fixed windows: every claim's span, one single day of claims, the default window (the last six months).
  for (const organization of world.organizations) {
    for (const isDeclared of [undefined, true, false]) {
      const all = { startDate: addDays(world.firstDay, -1), endDate: world.today, isDeclared };
      await checkWindow(organization, all, { startDate: all.startDate, endDate: all.endDate, isDeclared });
    }
    const busyDay = await reference.busiestDay(run, organization.uuid);
    if (busyDay) await checkWindow(organization, { startDate: busyDay, endDate: busyDay }, { startDate: busyDay, endDate: busyDay });
    await checkWindow(organization, resolveWindow({}), {});
  }
  await fc.assert(
    fc.asyncProperty(windows(), async ({ organization, start, length, isDeclared }) => {
      const startDate = DAYS()[start]!;
      const endDate = addDays(startDate, length);
      await checkWindow(world.organizations[organization]!, { startDate, endDate, isDeclared }, { startDate, endDate, isDeclared });
    }),
    { numRuns: RUNS, seed: SEED + round },
  );
}

describe('the dashboard read from its daily rollups answers as the registers', () => {
  it('once the claims and vehicles are inserted in bulk', async () => {
    await checkRound(0);
  }, LONG);

  for (let round = 1; round <= ROUNDS; round++) {
    it(`after ${STEPS} more writes of every kind (round ${round}, seed ${SEED})`, async () => {
      const done: Step[] = [];
      for (let i = 0; i < STEPS; i++) done.push(await step(t, world, r));
      for (const { kind } of done) kinds.add(kind);
      await checkRound(round).catch((error: Error) => {
        error.message += `\nWrites of round ${round}:\n${done.map((d) => d.what).join('\n')}`;
        throw error;
      });
    }, LONG);
  }

  it('went through every kind of write', () => {
    const edited = new Set([...kinds].filter((k) => k.startsWith('claim edited: ')).flatMap((k) => k.slice('claim edited: '.length).split(', ')));
    expect([...edited].sort()).toEqual(expect.arrayContaining(['description', 'guarantee', 'isDeclared', 'paidAmount', 'responsibilityRate', 'sinisterDate', 'vehicule']));
    expect([...kinds].filter((k) => !k.startsWith('claim edited: ')).sort()).toEqual(
      [
        'claim archived', 'claim created', 'claim deleted', 'claim restored', 'draft completed', 'draft created', 'statement over several organizations',
        'vehicle archived', 'vehicle category changed', 'vehicle created', 'vehicle dates changed', 'vehicle deleted', 'vehicle restored', 'vehicles’ category changed in bulk',
      ].sort(),
    );
  });

  it('made again from the registers (the migration\u2019s fill, the repair), the rollups are the rows the triggers kept', async () => {
    const rows = sql`select (select count(*) from claim_daily_totals)::int as claims, (select count(*) from fleet_daily_movements)::int as fleet`;
    const before = await run<{ claims: number; fleet: number }>(rows);
    await t.seed((tx) => tx.execute(sql`select dashboard_rollups_rebuild()`));
    expect(await run(rows)).toEqual(before);
    await checkRollupsAgainstRegisters();
  }, LONG);

  it('an organization deleted takes its rollup rows with it, and nobody else’s', async () => {
    const before = await run<{ n: number }>(sql`select count(*)::int as n from claim_daily_totals`);
    const victim = world.organizations.find((o) => o.name === 'petite')!;
    const own = await run<{ n: number }>(sql`select count(*)::int as n from claim_daily_totals where organization_uuid = ${victim.uuid}`);
    await t.seed((tx) => tx.execute(sql`delete from organizations where uuid = ${victim.uuid}`));
    expect(await run<{ n: number }>(sql`select count(*)::int as n from claim_daily_totals where organization_uuid = ${victim.uuid}`)).toEqual([{ n: 0 }]);
    expect(await run<{ n: number }>(sql`select count(*)::int as n from fleet_daily_movements where organization_uuid = ${victim.uuid}`)).toEqual([{ n: 0 }]);
    expect(await run<{ n: number }>(sql`select count(*)::int as n from claim_daily_totals`)).toEqual([{ n: before[0]!.n - own[0]!.n }]);
    world.organizations = world.organizations.filter((o) => o !== victim);
    await checkRollupsAgainstRegisters();
  }, LONG);
});
