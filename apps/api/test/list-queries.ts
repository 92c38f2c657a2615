import { formatPhone, formatPlate, VEHICULE_TYPES } from '@flotte/contract';
import fc from 'fast-check';
import type { BoolText, CommonQuery, SinisterQuery, VehiculeQuery } from './list-reference.js';
import { GUARANTEE_SAMPLE, type Organization, type World } from './list-world.js';

/**
 * Generated queries of the lists' property test: search terms cut from the seeded values (names,
 * plates in every spelling, phones the French way, references, cities) with case and accent
 * variations or made of random characters ('%', '_', '\', spaces, digits), every filter, every
 * sort in both directions, and page sizes.
 */

/** Cuts 1 to 8 characters out of a value. */
function cut(value: string, start: number, length: number): string {
  const from = value.length === 0 ? 0 : start % value.length;
  return value.slice(from, from + length);
}

const ACCENTED: Record<string, string> = { a: 'à', e: 'é', i: 'î', o: 'ô', u: 'ù', c: 'ç', E: 'É', A: 'À' };

/** How a person may type what they saw: as is, in another case, without or with accents, with other separators. */
const VARIATIONS: Record<string, (term: string) => string> = {
  asIs: (term) => term,
  upper: (term) => term.toUpperCase(),
  lower: (term) => term.toLowerCase(),
  withoutAccents: (term) => term.normalize('NFD').replace(/\p{M}/gu, ''),
  withAccents: (term) => term.replace(/[aeioucEA]/g, (c) => ACCENTED[c]!),
  // LIKE's wildcards typed inside a term: they must match themselves only.
  underscore: (term) => (term.length > 2 ? `${term.slice(0, 1)}_${term.slice(2)}` : `${term}_`),
  percent: (term) => `${term.slice(0, 1)}%${term.slice(1)}`,
  dashes: (term) => term.replace(/ /g, '-'),
  spaces: (term) => term.replace(/-/g, ' '),
  padded: (term) => ` ${term} `,
};

/** Characters of random terms: letters with and without accents, digits, LIKE's wildcards and escape, separators. */
export const ALPHABET = [...'aeinorstuclmdAEBCDÉÀéèêàçîôùüœß0123456789%_\\ -.+()'];

function sourcesOf(organization: Organization, list: 'drivers' | 'vehicules' | 'sinisters'): string[] {
  const plates = (plate: string | null) => (plate ? [plate, formatPlate(plate), formatPlate(plate).replace(/-/g, ' ').toLowerCase()] : []);
  const values: (string | null)[] = [];
  if (list === 'drivers') {
    for (const d of organization.drivers) {
      // Each field, and the fields as the search reads them, joined (a term may span two).
      values.push(d.firstName, d.lastName, d.email, d.phone, `${d.firstName} ${d.lastName} ${d.email ?? ''} ${d.phone ?? ''}`);
      // A French number as people write it: 06 12 34 56 78, 06.12.34.56.78, 0612345678.
      const national = formatPhone(d.phone);
      if (national) values.push(national, national.replace(/ /g, '.'), national.replace(/ /g, ''));
    }
  }
  if (list === 'vehicules') {
    for (const v of organization.vehicules) values.push(...plates(v.immatriculation), v.brand, v.model, `${v.immatriculation ?? ''} ${v.brand ?? ''} ${v.model ?? ''}`);
  }
  if (list === 'sinisters') {
    const names = new Map(organization.drivers.map((d) => [d.uuid, `${d.firstName} ${d.lastName}`]));
    for (const s of organization.sinisters) {
      const driver = s.driverUuid ? names.get(s.driverUuid)! : '';
      values.push(s.sinisterIntermediateRef, s.city, ...plates(s.immatriculation), driver, `${s.sinisterIntermediateRef ?? ''} ${s.immatriculation ?? ''} ${s.city ?? ''} ${driver}`);
    }
  }
  const found = values.filter((v): v is string => Boolean(v));
  return found.length > 0 ? found : ['Dupont'];
}

/** A search term: cut from the organization's values (or another's), varied; random characters; or none. */
function termOf(world: World, organization: Organization, list: 'drivers' | 'vehicules' | 'sinisters') {
  const own = sourcesOf(organization, list);
  const everyone = world.organizations.flatMap((o) => sourcesOf(o, list));
  const cutFrom = (values: string[]) =>
    fc
      .tuple(fc.constantFrom(...values), fc.nat(200), fc.integer({ min: 1, max: 8 }), fc.constantFrom(...Object.keys(VARIATIONS)))
      .map(([value, start, length, variation]) => VARIATIONS[variation]!(cut(value, start, length)));
  return fc.oneof(
    { weight: 2, arbitrary: fc.constant(undefined) },
    { weight: 6, arbitrary: cutFrom(own) },
    { weight: 1, arbitrary: cutFrom(everyone) },
    { weight: 2, arbitrary: fc.string({ unit: fc.constantFrom(...ALPHABET), minLength: 1, maxLength: 8 }) },
  );
}

/** Absent or generated; `present` in percent. Shrinks to absent. */
const optional = <T>(arbitrary: fc.Arbitrary<T>, present: number) =>
  fc.oneof({ weight: 100 - present, arbitrary: fc.constant(undefined) }, { weight: present, arbitrary });
const boolText: fc.Arbitrary<BoolText> = fc.constantFrom('true', 'false', '1', '0');
const sortOf = (columns: readonly string[]) => optional(fc.constantFrom(...columns, ...columns.map((c) => `-${c}`)), 85);

/** Any date of the seeded years, or one of the seeded dates themselves (a bound equal to a row's date: both are included). */
function dateArb(seeded: (string | null)[]) {
  const any = fc
    .tuple(fc.integer({ min: 2018, max: 2026 }), fc.integer({ min: 1, max: 12 }), fc.integer({ min: 1, max: 28 }))
    .map(([y, m, d]) => `${y}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`);
  const dates = seeded.filter((d): d is string => d !== null);
  return dates.length > 0 ? fc.oneof(any, fc.constantFrom(...dates)) : any;
}

/** An optional period: start only, end only, or both in order (the contract refuses an end before the start). */
function periodArb(seeded: (string | null)[]) {
  const date = dateArb(seeded);
  return fc.tuple(optional(date, 35), optional(date, 35)).map(([a, b]) => (a && b && a > b ? [b, a] : [a, b]) as [string | undefined, string | undefined]);
}

function commonArb(world: World, organization: Organization, list: 'drivers' | 'vehicules' | 'sinisters', columns: readonly string[]): fc.Arbitrary<CommonQuery> {
  return fc.record({
    search: termOf(world, organization, list),
    withArchived: optional(boolText, 40),
    onlyArchived: optional(boolText, 25),
    sortBy: sortOf(columns),
    limit: optional(fc.integer({ min: 1, max: 50 }), 80),
  });
}

export type Scenario<Q> = { organization: number; other: number; query: Q; fresh: boolean };

/** Which organization asks (the large one more often), another one asking the same, the query, the cache header. */
function scenarioArb<Q>(world: World, queryOf: (organization: Organization) => fc.Arbitrary<Q>): fc.Arbitrary<Scenario<Q>> {
  const count = world.organizations.length;
  return fc
    .tuple(fc.constantFrom(...[...Array(count).keys()], count - 1, count - 1, count - 2), fc.nat(count - 2), fc.boolean())
    .chain(([organization, shift, fresh]) =>
      queryOf(world.organizations[organization]!).map((query) => ({ organization, other: (organization + 1 + shift) % count, query, fresh })),
    );
}

export const DRIVER_COLUMNS = ['lastName', 'firstName', 'email', 'phone', 'createdAt'] as const;
export const VEHICULE_COLUMNS = ['immatriculation', 'brand', 'model', 'type', 'circulationDate', 'entryDate', 'exitDate', 'createdAt'] as const;
export const SINISTER_COLUMNS = ['sinisterDate', 'sinisterIntermediateRef', 'city', 'totalCost', 'immatriculation', 'createdAt'] as const;

export function driverScenarios(world: World) {
  return scenarioArb(world, (o) => commonArb(world, o, 'drivers', DRIVER_COLUMNS));
}

const TYPE_CODES = VEHICULE_TYPES.map((t) => t.code);

export function vehiculeScenarios(world: World): fc.Arbitrary<Scenario<VehiculeQuery>> {
  // Categories as the select sends them (VP,PL), spaced by hand, or blank (no filter).
  const typesArb = fc.oneof(
    fc.subarray(TYPE_CODES, { minLength: 1, maxLength: 3 }).map((codes) => codes.join(',')),
    fc.subarray(TYPE_CODES, { minLength: 1, maxLength: 2 }).map((codes) => ` ${codes.join(' , ')} `),
    fc.constantFrom('', ' '),
  );
  return scenarioArb(world, (o) =>
    fc
      .tuple(commonArb(world, o, 'vehicules', VEHICULE_COLUMNS), optional(typesArb, 35), periodArb(o.vehicules.flatMap((v) => [v.entryDate, v.exitDate])))
      .map(([common, types, [start, end]]) => ({ ...common, types, start, end })),
  );
}

const OUTSIDER_UUID = '7c9e6679-7425-40de-944b-e07fc1f90ae7';

export function sinisterScenarios(world: World): fc.Arbitrary<Scenario<SinisterQuery>> {
  const guaranteeUuids = [...world.guarantees].filter(([, label]) => GUARANTEE_SAMPLE.includes(label) || label === 'Attentats').map(([uuid]) => uuid);
  // A link of the organization, of another one (it matches nothing here), or of nothing at all.
  const linkArb = (organization: Organization, uuidsOf: (o: Organization) => string[]) => {
    const own = uuidsOf(organization);
    const others = world.organizations.filter((o) => o !== organization).flatMap(uuidsOf);
    return fc.oneof(
      ...(own.length > 0 ? [{ weight: 4, arbitrary: fc.constantFrom(...own) }] : []),
      { weight: 1, arbitrary: fc.constantFrom(...others, OUTSIDER_UUID) },
    );
  };
  const filtersOf = (o: Organization) =>
    fc.record({
      showDeclared: optional(boolText, 30),
      showNotDeclared: optional(boolText, 30),
      responsible: optional(fc.constantFrom('me' as const, 'other' as const), 30),
      hasHumanInjury: optional(boolText, 25),
      damagedVehicule: optional(boolText, 25),
      isThirdImplicated: optional(boolText, 25),
      garantee: optional(fc.constantFrom(...guaranteeUuids, OUTSIDER_UUID), 15),
      vehicule: optional(linkArb(o, (x) => x.sinisters.flatMap((s) => (s.vehiculeUuid ? [s.vehiculeUuid] : []))), 12),
      driver: optional(linkArb(o, (x) => x.sinisters.flatMap((s) => (s.driverUuid ? [s.driverUuid] : []))), 12),
      status: optional(fc.constantFrom('open' as const, 'inProgress' as const, 'closed' as const, 'refused' as const), 25),
    });
  return scenarioArb(world, (o) =>
    fc
      .tuple(commonArb(world, o, 'sinisters', SINISTER_COLUMNS), filtersOf(o), periodArb(o.sinisters.map((s) => s.sinisterDate)))
      .map(([common, set, [startDate, endDate]]) => ({ ...common, ...set, startDate, endDate })),
  );
}

/**
 * Symbols PostgreSQL's unaccent folds to LIKE's characters (％ ﹪ → %, ＿ → _, ＼ ∖ ﹨ → \): the search
 * escapes after folding, so they match what they fold to (hand-picked terms below).
 */
export const WILDCARD_LOOKALIKES = ['％', '﹪', '＿', '＼', '∖', '﹨'];

/** Hand-picked terms: one letter, an accent alone, LIKE's characters, plates and phones half typed, nothing. */
export const EDGE_TERMS = ['e', 'é', 'É', 'œ', '%', '_', '\\', '%_', '100%', 'C15_%', 'AB-1', 'ab 1', 'ab-1', '06 12', '+33 6', '(0)6', '33 6', 'ECUYER', 'écuyer', 'zzqxj', '   ', 'a b', 'x', '％', 'e＿', '＼', '1﹪'];
