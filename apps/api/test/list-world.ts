import { sql } from 'drizzle-orm';
import type { WriteTx } from '../src/db/scope.js';
import { guarantees } from '../src/db/schema/sinisters.js';
import {
  createDrivers,
  createOrganization,
  createSinisters,
  createUser,
  createVehicules,
  type DriverInput,
  linkUser,
  type SinisterInput,
  type VehiculeInput,
} from '../src/seed/factories.js';
import type { TestContext } from './test-app.js';

/**
 * The data of the lists' property test (src/db/lists.property.test.ts): several organizations of
 * different sizes, drawn from a seeded random generator so that a run is reproducible from its
 * seed, and kept in memory as stored (the reference in list-reference.ts reads only this).
 */

export type DriverRecord = {
  uuid: string;
  firstName: string;
  lastName: string;
  email: string | null;
  phone: string | null;
  archivedAt: Date | null;
  createdAt: Date;
};

export type VehiculeRecord = {
  uuid: string;
  /** Stored normalised; null on a draft. */
  immatriculation: string | null;
  brand: string | null;
  model: string | null;
  type: string | null;
  circulationDate: string | null;
  entryDate: string | null;
  exitDate: string | null;
  archivedAt: Date | null;
  createdAt: Date;
};

export type SinisterRecord = {
  uuid: string;
  vehiculeUuid: string | null;
  driverUuid: string | null;
  guaranteeUuid: string | null;
  sinisterIntermediateRef: string | null;
  sinisterDate: string;
  city: string | null;
  ida: boolean;
  hasHumanInjury: boolean;
  damagedVehicule: boolean;
  isThirdImplicated: boolean;
  isDeclared: boolean;
  responsibilityRate: number | null;
  immatriculation: string | null;
  totalCostCents: number;
  status: 'open' | 'inProgress' | 'closed' | 'refused';
  openedAt: string | null;
  closedAt: string | null;
  paidCents: number;
  reserveCents: number;
  description: string | null;
  archivedAt: Date | null;
  createdAt: Date;
};

export type Organization = {
  name: string;
  uuid: string;
  token: string;
  drivers: DriverRecord[];
  vehicules: VehiculeRecord[];
  sinisters: SinisterRecord[];
  /** Every uuid of its registers: no answer to another organization may hold one. */
  uuids: Set<string>;
};

export type World = { organizations: Organization[]; guarantees: Map<string, string> };

/** mulberry32: a small seeded generator, enough to draw reproducible data. */
export function randomFrom(seed: number) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let x = Math.imul(state ^ (state >>> 15), 1 | state);
    x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x;
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
  const int = (min: number, max: number) => min + Math.floor(next() * (max - min + 1));
  const pick = <T>(items: readonly T[]): T => items[int(0, items.length - 1)]!;
  const chance = (p: number) => next() < p;
  return { next, int, pick, chance };
}
type Random = ReturnType<typeof randomFrom>;

// Accents, case variants of one name (namesakes whose sort keys tie), ligatures, apostrophes.
const FIRST_NAMES = ['Élodie', 'élodie', 'ELODIE', 'Jérôme', 'Chloé', 'Anaïs', 'François', 'Hélène', 'Noël', 'Zoé', 'Maëlle', 'Gaëtan', 'Loïc', 'Céline', 'Benoît', 'Lætitia', 'Jean', 'Marie', 'Inès', 'Raphaël', 'Ève'];
const LAST_NAMES = ['Écuyer', 'ECUYER', 'ecuyer', 'Dupont', 'Lefèvre', 'Bénard', 'Müller', 'Garçon', 'Dubois', "D'Artagnan", 'Le Gall', 'de la Fontaine', 'Nguyễn', 'Šimić', 'Cœurdacier', 'Martin', 'Étienne', 'Ångström'];
const DOMAINS = ['transports-alpha.fr', 'flotte.example', 'exemple.fr', 'b_t_p.fr'];
const BRANDS = ['Renault', 'renault', 'RENAULT', 'Peugeot', 'Citroën', 'CITROEN', 'Škoda', 'Mercedes-Benz', 'Iveco', 'Dacia', 'Volkswagen', 'Toyota', 'Mécanique_Générale', 'Éts 100%'];
const MODELS = ['Clio', 'clio', '308', 'Berlingo', 'Kangoo', 'Sprinter', 'Daily', 'Trafic', 'Master', 'Zoé', 'Mégane', 'Scénic', 'C15_%', 'Octavia', 'Série\\3'];
const TYPES = ['VP', 'VUL', 'PL', 'TRACTEUR', 'AUTOCAR', 'REMORQUE_LEGERE', 'SEMI_REMORQUE', 'DEUX_ROUES_125', 'ENGIN_CHANTIER', 'AUTRE'];
const CITIES = ['Saint-Étienne', 'SAINT-ETIENNE', 'Lyon', 'Orléans', 'Besançon', 'Nîmes', 'Aix-en-Provence', 'Évry', 'evry', 'Île-de-Ré', 'Zone_Industrielle', 'Entrepôt 100%', 'C:\\Dépôt\\Nord', 'Œuilly', 'Saint-Denis'];
const SIV_LETTERS = 'ABCDEFGHJKLMNPQRSTVWXYZ';
export const GUARANTEE_SAMPLE = ['Responsabilité civile', 'Bris de glace', 'Vol', 'Incendie', 'Dommages tous accidents'];

const pad = (n: number, width: number) => String(n).padStart(width, '0');
const letters = (r: Random, n: number) => Array.from({ length: n }, () => r.pick([...SIV_LETTERS])).join('');

/** A plate as it is typed: SIV (AB-123-CD), FNI (1234 AB 75), foreign or garage; the factory normalises it. */
function plate(r: Random): string {
  const kind = r.int(0, 9);
  if (kind < 6) return `${letters(r, 2)}-${pad(r.int(1, 999), 3)}-${letters(r, 2)}`;
  if (kind < 8) return `${r.int(1, 9999)} ${letters(r, r.int(2, 3))} ${pad(r.int(1, 95), 2)}`;
  if (kind < 9) return r.pick([`B-${letters(r, 2)} ${r.int(100, 9999)}`, `${r.int(1, 9)}-${letters(r, 3)}-${pad(r.int(0, 999), 3)}`]);
  return `W-${pad(r.int(1, 999), 3)}-${letters(r, 2)}`;
}

/** E.164, as the contract stores it: French mobiles and landlines mostly, some foreign numbers. */
function phone(r: Random): string {
  if (r.chance(0.8)) return `+33${r.pick(['6', '7', '1', '4'])}${pad(r.int(0, 99_999_999), 8)}`;
  return r.pick([`+49151${pad(r.int(0, 9_999_999), 7)}`, `+32470${pad(r.int(0, 999_999), 6)}`]);
}

function isoDate(r: Random, fromYear: number, toYear: number): string {
  return `${r.int(fromYear, toYear)}-${pad(r.int(1, 12), 2)}-${pad(r.int(1, 28), 2)}`;
}

/** Instants with millisecond precision (what a Date holds), often repeated: sort ties. */
function instants(r: Random) {
  const seen: Date[] = [];
  return () => {
    if (seen.length > 0 && r.chance(0.3)) return r.pick(seen);
    const date = new Date(Date.UTC(2022, 0, 1) + r.int(0, 4 * 365 * 24 * 3600) * 1000 + r.int(0, 999));
    seen.push(date);
    return date;
  };
}

const ascii = (s: string) => s.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase().replace(/[^a-z]/g, '');

function driverInputs(r: Random, count: number): DriverInput[] {
  return Array.from({ length: count }, () => {
    const firstName = r.pick(FIRST_NAMES);
    const lastName = r.pick(LAST_NAMES);
    return {
      firstName,
      lastName,
      email: r.chance(0.75) ? `${ascii(firstName)}${r.pick(['.', '_', '+flotte.'])}${ascii(lastName)}@${r.pick(DOMAINS)}` : null,
      phone: r.chance(0.75) ? phone(r) : null,
      archivedAt: r.chance(0.15) ? new Date(Date.UTC(2025, r.int(0, 11), r.int(1, 28), r.int(0, 23))) : null,
    };
  });
}

function vehiculeInputs(r: Random, count: number, when: () => Date): VehiculeInput[] {
  const plates: string[] = [];
  return Array.from({ length: count }, () => {
    const createdAt = when();
    // A draft (create-empty): no plate yet, never listed nor counted.
    if (r.chance(0.05)) return { immatriculation: null, brand: null, model: null, type: null, createdAt };
    const archived = r.chance(0.15);
    // An archived vehicle may hold the plate of an active one (the unique index is on active plates): a sort tie.
    const immatriculation = archived && plates.length > 0 && r.chance(0.4) ? r.pick(plates) : plate(r);
    if (!archived) plates.push(immatriculation);
    const circulationDate = r.chance(0.8) ? isoDate(r, 2005, 2020) : null;
    const entryDate = r.chance(0.8) ? isoDate(r, 2020, 2023) : null;
    return {
      immatriculation,
      brand: r.chance(0.05) ? null : r.pick(BRANDS),
      model: r.chance(0.05) ? null : r.pick(MODELS),
      type: r.chance(0.05) ? null : r.pick(TYPES),
      circulationDate,
      entryDate,
      exitDate: archived || r.chance(0.15) ? isoDate(r, 2024, 2026) : null,
      archivedAt: archived ? new Date(Date.UTC(2025, r.int(0, 11), r.int(1, 28))) : null,
      createdAt,
    };
  });
}

function sinisterInputs(r: Random, count: number, vehicules: VehiculeRecord[], drivers: DriverRecord[]): SinisterInput[] {
  // A claim in progress has paid a third of its cost; the rest is reserved.
  return claimInputs(r, count, vehicules, drivers).map((s) => (s.status === 'inProgress' ? { ...s, paidCents: Math.floor((s.totalCostCents ?? 0) / 3) } : s));
}

function claimInputs(r: Random, count: number, vehicules: VehiculeRecord[], drivers: DriverRecord[]): SinisterInput[] {
  return Array.from({ length: count }, (_, i) => {
    const vehicule = vehicules.length > 0 && r.chance(0.85) ? r.pick(vehicules) : null;
    const year = r.int(2019, 2025);
    return {
      vehiculeUuid: vehicule?.uuid ?? null,
      driverUuid: drivers.length > 0 && r.chance(0.7) ? r.pick(drivers).uuid : null,
      guaranteeLabel: r.chance(0.8) ? r.pick(GUARANTEE_SAMPLE) : null,
      sinisterIntermediateRef: r.chance(0.9)
        ? r.pick([`SIN-${year}-${pad(i, 4)}`, `sin-${year}-${pad(i, 3)}`, `REF_${r.int(0, 99)}%`, `A\\B-${r.int(0, 99)}`, `Dossier ${letters(r, 2)}${r.int(1, 9)}`])
        : null,
      sinisterDate: isoDate(r, year, year),
      city: r.chance(0.85) ? r.pick(CITIES) : null,
      ida: r.chance(0.3),
      hasHumanInjury: r.chance(0.2),
      damagedVehicule: r.chance(0.6),
      isThirdImplicated: r.chance(0.4),
      isDeclared: r.chance(0.5),
      responsibilityRate: r.pick([0, 25, 50, 75, 100, null] as const),
      // Without a vehicle, the plate as declared may remain (the vehicle deleted since), normalised.
      immatriculation: vehicule ? undefined : r.chance(0.5) ? plate(r).toUpperCase().replace(/[\s.-]/g, '') : null,
      totalCostCents: r.chance(0.2) ? 0 : r.pick([r.int(1, 99), r.int(100, 500_000), 150_000]),
      archivedAt: r.chance(0.15) ? new Date(Date.UTC(2025, r.int(0, 11), r.int(1, 28))) : null,
      // Every status; an open or in-progress claim may have paid part of its cost already.
      status: r.pick(['open', 'inProgress', 'closed', 'refused'] as const),
      description: r.chance(0.3) ? r.pick(['Choc arrière au feu rouge', 'Bris de glace sur parking', 'Accrochage en créneau']) : null,
    };
  });
}

/** Sets created_at (drivers and claims take now() from the factories, the same instant for all). */
async function setCreatedAt(tx: WriteTx, table: 'drivers' | 'sinisters', rows: { uuid: string; createdAt: Date }[]) {
  if (rows.length === 0) return;
  const values = JSON.stringify(rows.map((row) => ({ uuid: row.uuid, at: row.createdAt.toISOString() })));
  await tx.execute(sql`update ${sql.identifier(table)} t set created_at = v.at from json_to_recordset(${values}::json) as v(uuid uuid, at timestamptz) where t.uuid = v.uuid`);
}

// The stored fields only: the generated columns (search_text, sort keys) are the product's, not the reference's.
const pickDriver = ({ uuid, firstName, lastName, email, phone, archivedAt, createdAt }: DriverRecord): DriverRecord => ({ uuid, firstName, lastName, email, phone, archivedAt, createdAt });
const pickVehicule = ({ uuid, immatriculation, brand, model, type, circulationDate, entryDate, exitDate, archivedAt, createdAt }: VehiculeRecord): VehiculeRecord => ({
  uuid, immatriculation, brand, model, type, circulationDate, entryDate, exitDate, archivedAt, createdAt,
});
const pickSinister = (row: SinisterRecord): SinisterRecord => {
  const { uuid, vehiculeUuid, driverUuid, guaranteeUuid, sinisterIntermediateRef, sinisterDate, city, ida, hasHumanInjury, damagedVehicule } = row;
  const { isThirdImplicated, isDeclared, responsibilityRate, immatriculation, totalCostCents, archivedAt, createdAt } = row;
  const { status, openedAt, closedAt, paidCents, reserveCents, description } = row;
  return {
    uuid, vehiculeUuid, driverUuid, guaranteeUuid, sinisterIntermediateRef, sinisterDate, city, ida, hasHumanInjury, damagedVehicule, isThirdImplicated, isDeclared, responsibilityRate,
    immatriculation, totalCostCents, status, openedAt, closedAt, paidCents, reserveCents, description, archivedAt, createdAt,
  };
};

/** Organizations by size: vehicles; drivers ≈ 1.2 and claims ≈ 1.5 per vehicle. The empty one has nothing. */
export const SIZES = [
  { name: 'vide', vehicules: 0 },
  { name: 'petite', vehicules: 3 },
  { name: 'moyenne', vehicules: 60 },
  { name: 'grande', vehicules: 400 },
] as const;

/** Seeds every organization through the factories (system scope), each with a user logged in. */
export async function seedWorld(t: TestContext, seed: number): Promise<World> {
  const r = randomFrom(seed);
  const when = instants(r);
  const seeded = await t.seed(async (tx) => {
    const guaranteeRows = await tx.select({ uuid: guarantees.uuid, label: guarantees.label }).from(guarantees);
    const organizations: Omit<Organization, 'token' | 'uuids'>[] = [];
    const emails: string[] = [];
    for (const size of SIZES) {
      const { uuid } = await createOrganization(tx, { title: `Liste ${size.name}` });
      const user = await createUser(tx, { email: `listes-${size.name}-${seed}@exemple.fr` });
      await linkUser(tx, uuid, user.uuid);
      emails.push(user.email);
      const vehicules = (await createVehicules(tx, uuid, vehiculeInputs(r, size.vehicules, when))).map(pickVehicule);
      const drivers = (await createDrivers(tx, uuid, driverInputs(r, Math.round(size.vehicules * 1.2) + (size.vehicules > 0 ? 1 : 0)))).map((row) => ({ ...pickDriver(row), createdAt: when() }));
      await setCreatedAt(tx, 'drivers', drivers);
      const sinisters = (await createSinisters(tx, uuid, sinisterInputs(r, Math.round(size.vehicules * 1.5) + (size.vehicules > 0 ? 1 : 0), vehicules, drivers))).map((row) => ({
        ...pickSinister(row),
        createdAt: when(),
      }));
      await setCreatedAt(tx, 'sinisters', sinisters);
      organizations.push({ name: size.name, uuid, drivers, vehicules, sinisters });
    }
    return { organizations, emails, guarantees: new Map(guaranteeRows.map((g) => [g.uuid, g.label])) };
  });
  const organizations: Organization[] = [];
  for (const [i, organization] of seeded.organizations.entries()) {
    const uuids = new Set([...organization.drivers, ...organization.vehicules, ...organization.sinisters].map((row) => row.uuid));
    organizations.push({ ...organization, token: await t.login(seeded.emails[i]!), uuids });
  }
  return { organizations, guarantees: seeded.guarantees };
}
