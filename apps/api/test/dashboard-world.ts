import { todayIso } from '@flotte/contract';
import { sql } from 'drizzle-orm';
import { expect } from 'vitest';
import { indicators } from '../src/db/schema/indicators.js';
import { guarantees } from '../src/db/schema/sinisters.js';
import { createDrivers, createOrganization, createSinisters, createUser, createVehicules, linkUser, type SinisterInput, type VehiculeInput } from '../src/seed/factories.js';
import { randomFrom } from './list-world.js';
import type { TestContext } from './test-app.js';

/**
 * The data of the dashboard's property test (src/modules/dashboard/dashboard.property.test.ts):
 * organizations whose claims and vehicles are first inserted in bulk, then written one step at a
 * time the way people and imports write them — through the API (create, edit, archive, restore,
 * delete, the bulk category change, drafts) and by plain statements spanning several
 * organizations at once — every step drawn from a seeded generator (reproducible from its seed).
 * The registers are what they are after the steps: the reference (dashboard-reference.ts) reads
 * them, not a copy kept here.
 */

type Random = ReturnType<typeof randomFrom>;

export type DashboardOrganization = { name: string; uuid: string; token: string; drivers: string[] };
export type DashboardWorld = {
  organizations: DashboardOrganization[];
  guarantees: string[];
  today: string;
  firstDay: string;
  /** The run's next plate: never one used before, so a restored vehicle never meets an active one holding its plate. */
  plate: () => string;
};

const TYPES = ['VP', 'VUL', 'PL', 'TRACTEUR', 'AUTOCAR', 'SEMI_REMORQUE', 'AUTRE'] as const;
const RATES = [0, 25, 50, 75, 100, null] as const;
const LETTERS = 'ABCDEFGHJKLMNPQRSTVWXYZ';

const DAY = 86_400_000;
export const addDays = (iso: string, days: number) => new Date(Date.parse(`${iso}T00:00:00Z`) + days * DAY).toISOString().slice(0, 10);
export const daysBetween = (from: string, to: string) => Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY);
/** A day from `from` to `to` (`from` itself when it is later). */
const dayIn = (r: Random, from: string, to: string) => addDays(from, r.int(0, Math.max(0, daysBetween(from, to))));

/** Plates unique across the run. */
function plates(seed: number) {
  let n = 0;
  return () => {
    n += 1;
    return `${LETTERS[seed % 23]}${LETTERS[Math.floor(n / 999) % 23]}${String(1 + (n % 999)).padStart(3, '0')}${LETTERS[Math.floor(n / 23) % 23]}${LETTERS[n % 23]}`;
  };
}

/** Organizations: three with data (sizes differ), one with periods and nothing else. */
const SIZES = [
  { name: 'grande', vehicules: 40, claims: 160 },
  { name: 'moyenne', vehicules: 15, claims: 50 },
  { name: 'petite', vehicules: 3, claims: 6 },
  { name: 'vide', vehicules: 0, claims: 0 },
] as const;

export async function seedDashboardWorld(t: TestContext, seed: number): Promise<DashboardWorld> {
  const r = randomFrom(seed);
  const plate = plates(seed);
  const today = todayIso();
  const year = Number(today.slice(0, 4));
  // Claims and movements from three years before the current one to today.
  const firstDay = `${year - 3}-01-01`;
  const someDay = (from = firstDay, to = today) => dayIn(r, from, to);

  const vehiculeInput = (): VehiculeInput => {
    const entryDate = r.chance(0.15) ? null : someDay(`${year - 4}-06-01`);
    const archived = r.chance(0.2);
    // Archived with or without an exit date (an import, or archived before the exit date was kept).
    const exitDate = (archived && r.chance(0.6)) || r.chance(0.1) ? someDay(entryDate ?? firstDay, `${year + 1}-03-31`) : null;
    if (r.chance(0.06)) return { immatriculation: null, brand: null, model: null, type: r.chance(0.5) ? r.pick(TYPES) : null, entryDate };
    return {
      immatriculation: plate(),
      type: r.chance(0.08) ? null : r.pick(TYPES),
      entryDate,
      exitDate,
      archivedAt: archived ? new Date(Date.parse(`${someDay()}T00:00:00Z`) + r.int(0, DAY - 1)) : null,
    };
  };

  const seeded = await t.seed(async (tx) => {
    const guaranteeRows = await tx.select({ uuid: guarantees.uuid, label: guarantees.label }).from(guarantees);
    const organizations: (Omit<DashboardOrganization, 'token'> & { email: string })[] = [];
    for (const size of SIZES) {
      const { uuid } = await createOrganization(tx, { title: `Tableau ${size.name}` });
      const email = `tableau-${size.name}-${seed}@exemple.fr`;
      const user = await createUser(tx, { email });
      await linkUser(tx, uuid, user.uuid, 'ADMIN');
      // A period per year, the current one included: every figure has premiums and vehicles to count against.
      await tx.insert(indicators).values(
        [3, 2, 1, 0].map((back) => ({
          organizationUuid: uuid,
          startDate: `${year - back}-01-01`,
          endDate: `${year - back}-12-31`,
          motorsCount: r.int(0, 3) === 0 ? 0 : r.int(1, 60),
          cashReceivedCents: r.int(0, 5_000_000),
        })),
      );
      const vehicules = await createVehicules(tx, uuid, Array.from({ length: size.vehicules }, vehiculeInput));
      const drivers = size.vehicules === 0 ? [] : await createDrivers(tx, uuid, Array.from({ length: 5 }, (_, i) => ({ firstName: `Prénom${i}`, lastName: `Nom${r.int(0, 3)}` })));
      const claims: SinisterInput[] = Array.from({ length: size.claims }, () => ({
        vehiculeUuid: vehicules.length > 0 && r.chance(0.85) ? r.pick(vehicules).uuid : null,
        driverUuid: drivers.length > 0 && r.chance(0.6) ? r.pick(drivers).uuid : null,
        guaranteeLabel: r.chance(0.85) ? r.pick(guaranteeRows).label : null,
        sinisterDate: someDay(),
        isDeclared: r.chance(0.6),
        responsibilityRate: r.pick(RATES),
        totalCostCents: r.chance(0.15) ? 0 : r.int(1, 800_000),
        status: r.pick(['open', 'inProgress', 'closed', 'refused'] as const),
        archivedAt: r.chance(0.12) ? new Date() : null,
      }));
      await createSinisters(tx, uuid, claims);
      organizations.push({ name: size.name, uuid, email, drivers: drivers.map((d) => d.uuid) });
    }
    return { organizations, guarantees: guaranteeRows.map((g) => g.uuid) };
  });
  const organizations: DashboardOrganization[] = [];
  for (const { email, ...organization } of seeded.organizations) organizations.push({ ...organization, token: await t.login(email) });
  return { organizations, guarantees: seeded.guarantees, today, firstDay, plate };
}

type Row = { uuid: string; archived: boolean; plate: string | null; entry: string | null };

/** The organization's claims and vehicles as they are now (a step picks among them). */
async function current(t: TestContext, organization: string) {
  const result = await t.seed(async (tx) => ({
    claims: (
      (await tx.execute(sql`select uuid, archived_at is not null as archived from sinisters where organization_uuid = ${organization} order by uuid`)) as unknown as {
        rows: Row[];
      }
    ).rows,
    vehicules: (
      (await tx.execute(
        sql`select uuid, archived_at is not null as archived, immatriculation as plate, entry_date::text as entry from vehicules where organization_uuid = ${organization} order by uuid`,
      )) as unknown as { rows: Row[] }
    ).rows,
  }));
  return result;
}

/** Euros with cents, as a form sends them. */
const euros = (r: Random) => r.int(0, 600_000) / 100;

/**
 * One step, drawn from `r`: mostly one write through the API as the organization's administrator,
 * sometimes a plain statement over several organizations (a bulk write or an import). Returns
 * what it did, for the failure message.
 */
export type Step = { kind: string; what: string };

export async function step(t: TestContext, world: DashboardWorld, r: Random): Promise<Step> {
  const active = world.organizations.filter((o) => o.name !== 'vide');
  const organization = r.pick(active);
  const { claims, vehicules } = await current(t, organization.uuid);
  const inFleet = vehicules.filter((v) => v.plate !== null);
  const someDay = (from = world.firstDay) => dayIn(r, from, world.today);
  const { plate } = world;
  const api = async (kind: string, method: 'POST' | 'PATCH' | 'DELETE', url: string, payload?: object): Promise<Step> => {
    const response = await t.as(organization.token, { method, url, ...(payload ? { payload } : {}) });
    const what = `${organization.name}: ${method} ${url} ${payload ? JSON.stringify(payload) : ''}`;
    expect(response.statusCode, `${what} → ${response.body}`).toBeLessThan(300);
    return { kind, what };
  };
  const kind = r.int(0, 99);

  // Claims.
  if (kind < 14 && inFleet.length > 0) {
    return api('claim created', 'POST', '/api/sinister', {
      sinisterDate: someDay(),
      vehicule: r.pick(inFleet).uuid,
      ...(organization.drivers.length > 0 && r.chance(0.5) ? { driver: r.pick(organization.drivers) } : {}),
      guarantee: r.chance(0.85) ? r.pick(world.guarantees) : null,
      isDeclared: r.chance(0.6),
      responsibilityRate: r.pick(RATES),
      totalCost: euros(r),
    });
  }
  if (kind < 40 && claims.length > 0) {
    const claim = r.pick(claims);
    const body: Record<string, unknown> = {};
    // One or several of the fields the rollup groups by (or none of them: a description).
    for (const field of ['date', 'cost', 'declared', 'guarantee', 'rate', 'vehicule', 'other'].filter(() => r.chance(0.35))) {
      if (field === 'date') Object.assign(body, { sinisterDate: someDay(), openedAt: null, status: 'inProgress' });
      if (field === 'cost') {
        Object.assign(
          body,
          r.chance(0.5) ? { status: 'inProgress', paidAmount: euros(r), reserveAmount: euros(r) } : { status: 'closed', closedAt: world.today, paidAmount: euros(r), reserveAmount: 0 },
        );
        if (body.sinisterDate) body.status = 'inProgress';
        if (body.status === 'inProgress') delete body.closedAt;
      }
      if (field === 'declared') body.isDeclared = r.chance(0.5);
      if (field === 'guarantee') body.guarantee = r.chance(0.85) ? r.pick(world.guarantees) : null;
      if (field === 'rate') body.responsibilityRate = r.pick(RATES);
      if (field === 'vehicule' && inFleet.length > 0) body.vehicule = r.pick(inFleet).uuid;
      if (field === 'other') body.description = `Étape ${r.int(0, 999)}`;
    }
    return api(`claim edited: ${Object.keys(body).sort().join(', ') || 'nothing'}`, 'PATCH', `/api/sinister/${claim.uuid}`, body);
  }
  if (kind < 48 && claims.some((c) => !c.archived)) return api('claim archived', 'DELETE', `/api/sinister/${r.pick(claims.filter((c) => !c.archived)).uuid}`);
  if (kind < 54 && claims.some((c) => c.archived)) return api('claim restored', 'POST', `/api/sinister/restore/${r.pick(claims.filter((c) => c.archived)).uuid}`);
  if (kind < 58 && claims.length > 0) return api('claim deleted', 'DELETE', `/api/sinister/${r.pick(claims).uuid}/hard`);

  // Vehicles.
  if (kind < 64) {
    const entryDate = r.chance(0.15) ? null : someDay(addDays(world.firstDay, -400));
    return api('vehicle created', 'POST', '/api/vehicule', {
      brand: 'Renault',
      model: 'Master',
      type: r.pick(TYPES),
      immatriculation: plate(),
      entryDate,
      exitDate: r.chance(0.2) ? someDay(entryDate ?? world.firstDay) : null,
    });
  }
  if (kind < 74 && inFleet.length > 0) {
    const vehicule = r.pick(inFleet);
    if (r.chance(0.5)) return api('vehicle category changed', 'PATCH', `/api/vehicule/${vehicule.uuid}`, { type: r.pick(TYPES) });
    const entryDate = r.chance(0.15) ? null : someDay(addDays(world.firstDay, -400));
    return api('vehicle dates changed', 'PATCH', `/api/vehicule/${vehicule.uuid}`, { entryDate, exitDate: r.chance(0.4) ? someDay(entryDate ?? world.firstDay) : null });
  }
  if (kind < 79 && inFleet.some((v) => !v.archived)) {
    const vehicule = r.pick(inFleet.filter((v) => !v.archived));
    // Without an exit date, archiving keeps the vehicle's own or takes today's (not before its entry).
    const withoutExit = r.chance(0.5) && (vehicule.entry ?? '') <= world.today;
    return api('vehicle archived', 'DELETE', `/api/vehicule/${vehicule.uuid}${withoutExit ? '' : `?exitDate=${someDay(vehicule.entry ?? world.firstDay)}`}`);
  }
  if (kind < 83 && vehicules.some((v) => v.archived)) return api('vehicle restored', 'POST', `/api/vehicule/restore/${r.pick(vehicules.filter((v) => v.archived)).uuid}`);
  if (kind < 86 && vehicules.length > 0) return api('vehicle deleted', 'DELETE', `/api/vehicule/${r.pick(vehicules).uuid}/hard`);
  if (kind < 89) {
    const types = [...new Set([r.pick(TYPES), r.pick(TYPES)])].join(',');
    return api('vehicles’ category changed in bulk', 'PATCH', `/api/vehicule/category/${r.pick(TYPES)}?types=${types}${r.chance(0.5) ? '&withArchived=true' : ''}`);
  }
  if (kind < 92) {
    // A draft, completed or not: it joins the fleet only with its plate.
    const response = await t.as(organization.token, { method: 'POST', url: '/api/vehicule/create-empty' });
    expect(response.statusCode, response.body).toBe(201);
    if (r.chance(0.5)) return { kind: 'draft created', what: `${organization.name}: draft` };
    const { uuid } = response.json<{ uuid: string }>();
    return api('draft completed', 'PATCH', `/api/vehicule/${uuid}`, { brand: 'Iveco', model: 'Daily', type: r.pick(TYPES), immatriculation: plate(), entryDate: someDay() });
  }

  // Plain statements over every organization at once (statement-level triggers, several organizations in one statement).
  const from = someDay();
  const to = addDays(from, r.int(0, 200));
  const statements = [
    sql`update sinisters set is_declared = not is_declared where sinister_date between ${from}::date and ${to}::date`,
    // Earlier, so the opening date stays on or after the claim's (the API's rules hold for the next edit).
    sql`update sinisters set sinister_date = sinister_date - ${r.int(1, 40)}::int where sinister_date between ${from}::date and ${to}::date`,
    sql`update sinisters set responsibility_rate = ${r.pick(RATES)}, guarantee_uuid = ${r.pick(world.guarantees)}::uuid where sinister_date between ${from}::date and ${to}::date and is_declared`,
    sql`update sinisters set archived_at = case when archived_at is null then now() end where sinister_date between ${from}::date and ${to}::date`,
    sql`delete from sinisters where sinister_date between ${from}::date and ${addDays(from, 10)}::date`,
    sql`insert into sinisters (organization_uuid, vehicule_uuid, guarantee_uuid, sinister_date, is_declared, responsibility_rate, reserve_cents, opened_at)
        select organization_uuid, vehicule_uuid, guarantee_uuid, sinister_date + 1, not is_declared, responsibility_rate, reserve_cents + 1, sinister_date + 1
        from sinisters where sinister_date between ${from}::date and ${to}::date and sinister_date < ${world.today}::date`,
    sql`update vehicules set type = ${r.pick(TYPES)} where type = ${r.pick(TYPES)}`,
    // Archived without an exit date (an import): gone the day after its archiving day.
    sql`update vehicules set exit_date = null, archived_at = ${`${someDay()}T${String(r.int(0, 23)).padStart(2, '0')}:30:00Z`}::timestamptz
        where immatriculation is not null and entry_date between ${from}::date and ${to}::date`,
    sql`update vehicules set entry_date = entry_date + 3 where entry_date between ${from}::date and ${to}::date and (exit_date is null or exit_date >= entry_date + 3)`,
    sql`delete from vehicules where entry_date between ${from}::date and ${addDays(from, 60)}::date`,
  ];
  const index = r.int(0, statements.length - 1);
  await t.seed((tx) => tx.execute(statements[index]!));
  return { kind: 'statement over several organizations', what: `every organization: statement ${index} (${from} → ${to})` };
}

export { randomFrom };
