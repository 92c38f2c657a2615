import { checkPlate } from '@flotte/contract';
import type { DriverRecord, Organization, SinisterRecord, VehiculeRecord, World } from './list-world.js';

/**
 * What the register lists must answer, written plainly from their documented semantics (the
 * contract's query schemas, docs/decisions/004, 006, 010, the list declarations) over the rows
 * kept in memory: the reference of the lists' property test. No SQL, no product code but the
 * contract's display of a plate's warning.
 */

// ——— Folding ———

/** What unaccent's rules spell out besides accents: ligatures, and symbols it folds to LIKE's characters. */
const SPELLED_OUT: Record<string, string> = { œ: 'oe', Œ: 'OE', æ: 'ae', Æ: 'AE', ß: 'ss', '％': '%', '﹪': '%', '＿': '_', '＼': '\\', '∖': '\\', '﹨': '\\' };

/** PostgreSQL's unaccent on these data: accents are the marks NFD separates; the rest is spelled out. */
export function unaccent(text: string): string {
  return text
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .replace(/[œŒæÆß％﹪＿＼∖﹨]/g, (c) => SPELLED_OUT[c]!);
}

const foldedTexts = new Map<string, string>();
/** lower(f_unaccent(x)): the folded form the search and the French-order sort keys use (remembered: the same texts come back). */
export function fold(text: string): string {
  let folded = foldedTexts.get(text);
  if (folded === undefined) {
    folded = unaccent(text).toLowerCase();
    foldedTexts.set(text, folded);
  }
  return folded;
}

// ——— Query parameters, as sent ———

export type BoolText = 'true' | 'false' | '1' | '0';
export type CommonQuery = { search?: string; withArchived?: BoolText; onlyArchived?: BoolText; sortBy?: string; page?: number; limit?: number };
export type DriverQuery = CommonQuery;
export type VehiculeQuery = CommonQuery & { types?: string; start?: string; end?: string };
export type SinisterQuery = CommonQuery & {
  showDeclared?: BoolText;
  showNotDeclared?: BoolText;
  responsible?: 'me' | 'other';
  hasHumanInjury?: BoolText;
  damagedVehicule?: BoolText;
  isThirdImplicated?: BoolText;
  garantee?: string;
  vehicule?: string;
  driver?: string;
  startDate?: string;
  endDate?: string;
  status?: 'open' | 'inProgress' | 'closed' | 'refused';
};

/** A boolean parameter is true as 'true' or '1'; 'false', '0' or absent set nothing. */
const isTrue = (value: BoolText | undefined) => value === 'true' || value === '1';

// ——— Sort keys ———

/** A sort key's value: text compared in the database's collation, a number, an ISO date or a uuid, or null. */
export type Key = { text: string } | number | string | null;
const text = (value: string | null): Key => (value === null ? null : { text: value });

/** The order of every text sort value, as the database's collation orders them (asked once, list-world seeds). */
let collation = new Map<string, number>();
export function useCollation(ranks: Map<string, number>) {
  collation = ranks;
}
function rank(value: string): number {
  const found = collation.get(value);
  if (found === undefined) throw new Error(`reference: no collation rank for ${JSON.stringify(value)}`);
  return found;
}

/** Ascending, NULLS LAST: PostgreSQL's default for ASC (and DESC is exactly its reverse, NULLS FIRST). */
function compareAscending(a: Key, b: Key): number {
  if (a === null || b === null) return a === b ? 0 : a === null ? 1 : -1;
  if (typeof a === 'object' && typeof b === 'object') return rank(a.text) - rank(b.text);
  // Numbers; ISO dates and uuids (lower-case hex) order as their characters.
  return a < b ? -1 : a > b ? 1 : 0;
}

// ——— One list ———

export type ListReference<Row, Q extends CommonQuery, Item> = {
  path: string;
  rows: (organization: Organization) => Row[];
  /** Rows the register never lists nor counts (a vehicle without a plate is a draft). */
  listed: (row: Row) => boolean;
  archivedAt: (row: Row) => Date | null;
  /** The fields a search reads, joined by spaces as the stored search_text joins them: a term may span two. */
  searchText: (row: Row, world: World, organization: Organization) => string;
  /** Other spellings of a term the search also tries. */
  otherSpellings: (term: string) => (string | null)[];
  filter: (row: Row, query: Q) => boolean;
  /** sortBy column → its key values, without the uuid every sort ends with. */
  sortKeys: Record<string, (row: Row) => Key[]>;
  defaultSort: string;
  uuid: (row: Row) => string;
  item: (row: Row, world: World, organization: Organization) => Item;
  /** The claims' answer has no archive counts (SPEC: data, page, nbOfPages, total). */
  counts: boolean;
  /** The list's declared sums over every row the query matches (the claims' total cost). */
  sums?: (matching: Row[]) => Record<string, number>;
};

export type Envelope = { page: number; nbOfPages: number; total: number; nbInActivity?: number; nbOfArchived?: number; sums?: Record<string, number> };

/** The answer of GET path?query for an organization: its items in order and the envelope. */
export function expectedAnswer<Row, Q extends CommonQuery, Item>(list: ListReference<Row, Q, Item>, world: World, organization: Organization, query: Q) {
  const register = list.rows(organization).filter(list.listed);
  // Active rows by default; withArchived adds the archived; onlyArchived (which wins) shows only them.
  const mode = isTrue(query.onlyArchived) ? 'only' : isTrue(query.withArchived) ? 'with' : 'active';
  const inMode = (row: Row) => (mode === 'with' ? true : mode === 'only' ? list.archivedAt(row) !== null : list.archivedAt(row) === null);

  // The contract trims the term; an empty one searches nothing. Every spelling, lower-cased then
  // folded, is looked for as it is ("contains": '%', '_' and '\' match themselves).
  const term = query.search?.trim() ?? '';
  const spellings = term === '' ? [] : [term, ...list.otherSpellings(term)].filter((s): s is string => Boolean(s)).map((s) => s.toLowerCase()).filter((s) => s.length > 0).map(fold);
  const found = (row: Row) => spellings.length === 0 || spellings.some((s) => fold(list.searchText(row, world, organization)).includes(s));

  const matching = register.filter((row) => inMode(row) && found(row) && list.filter(row, query));

  // Keys of the sort column then the uuid, all in the requested direction.
  const sortBy = query.sortBy ?? list.defaultSort;
  const descending = sortBy.startsWith('-');
  const keysOf = list.sortKeys[descending ? sortBy.slice(1) : sortBy]!;
  const keys = (row: Row) => [...keysOf(row), list.uuid(row)];
  const ordered = matching
    .map((row) => ({ row, keys: keys(row) }))
    .sort((a, b) => {
      for (let i = 0; i < a.keys.length; i++) {
        const c = compareAscending(a.keys[i]!, b.keys[i]!);
        if (c !== 0) return descending ? -c : c;
      }
      return 0;
    })
    .map(({ row }) => row);

  const page = query.page ?? 1;
  const limit = query.limit ?? 10;
  const items = ordered.slice((page - 1) * limit, page * limit).map((row) => list.item(row, world, organization));
  const envelope: Envelope = { page, nbOfPages: Math.max(1, Math.ceil(matching.length / limit)), total: matching.length };
  if (list.counts) {
    // The register's own counts, whatever the query: drafts are not in them.
    envelope.nbInActivity = register.filter((row) => list.archivedAt(row) === null).length;
    envelope.nbOfArchived = register.filter((row) => list.archivedAt(row) !== null).length;
  }
  if (list.sums) envelope.sums = list.sums(matching);
  return { items, envelope };
}

const iso = (date: Date | null) => date?.toISOString() ?? null;
const recordFields = (row: { archivedAt: Date | null; createdAt: Date }) => ({ documents: [], isArchived: row.archivedAt !== null, archivedAt: iso(row.archivedAt), createdAt: iso(row.createdAt)! });

/** A plate typed with spaces, dashes or dots is also looked for as stored (AB-123 → AB123). */
const plateSpelling = (term: string) => term.toUpperCase().replace(/[\s.-]/g, '');

// ——— Drivers ———

/** A phone typed the French way also looks for its E.164 digits: '06 12' → '33612'; other digit runs as they are. */
function phoneSpelling(term: string): string | null {
  const digits = term.replace(/[\s.\-()+]/g, '');
  if (!/^\d{2,}$/.test(digits)) return null;
  return digits.startsWith('0') ? `33${digits.slice(1)}` : digits;
}

export const driversReference: ListReference<DriverRecord, DriverQuery, unknown> = {
  path: '/api/driver',
  rows: (o) => o.drivers,
  listed: () => true,
  archivedAt: (d) => d.archivedAt,
  searchText: (d) => `${d.firstName} ${d.lastName} ${d.email ?? ''} ${d.phone ?? ''}`,
  otherSpellings: (term) => [phoneSpelling(term)],
  filter: () => true,
  // Names in French order (folded), namesakes by first name (or last name); e-mail and phone as stored.
  sortKeys: {
    lastName: (d) => [text(fold(d.lastName)), text(fold(d.firstName))],
    firstName: (d) => [text(fold(d.firstName)), text(fold(d.lastName))],
    email: (d) => [text(d.email)],
    phone: (d) => [text(d.phone)],
    createdAt: (d) => [d.createdAt.getTime()],
  },
  defaultSort: 'lastName',
  uuid: (d) => d.uuid,
  item: (d) => ({ uuid: d.uuid, firstName: d.firstName, lastName: d.lastName, email: d.email, phone: d.phone, ...recordFields(d) }),
  counts: true,
};

// ——— Vehicles ———

export const vehiculesReference: ListReference<VehiculeRecord, VehiculeQuery, unknown> = {
  path: '/api/vehicule',
  rows: (o) => o.vehicules,
  // A draft (no plate yet) is never listed.
  listed: (v) => v.immatriculation !== null,
  archivedAt: (v) => v.archivedAt,
  searchText: (v) => `${v.immatriculation ?? ''} ${v.brand ?? ''} ${v.model ?? ''}`,
  otherSpellings: (term) => [plateSpelling(term)],
  filter: (v, q) => {
    // types: comma-separated codes (blank: no filter); a vehicle without a category matches none.
    const types = q.types === undefined || q.types.trim() === '' ? undefined : q.types.split(',').map((c) => c.trim()).filter(Boolean);
    if (types && !(v.type !== null && types.includes(v.type))) return false;
    // In the fleet at some point of [start, end]: entered by the end, not gone before the start (unknown dates do not exclude).
    if (q.end && v.entryDate !== null && v.entryDate > q.end) return false;
    if (q.start && v.exitDate !== null && v.exitDate < q.start) return false;
    return true;
  },
  // Brand and model in French order (folded); the others as stored.
  sortKeys: {
    immatriculation: (v) => [text(v.immatriculation)],
    brand: (v) => [text(v.brand === null ? null : fold(v.brand))],
    model: (v) => [text(v.model === null ? null : fold(v.model))],
    type: (v) => [text(v.type)],
    circulationDate: (v) => [v.circulationDate],
    entryDate: (v) => [v.entryDate],
    exitDate: (v) => [v.exitDate],
    createdAt: (v) => [v.createdAt.getTime()],
  },
  defaultSort: 'immatriculation',
  uuid: (v) => v.uuid,
  item: (v) => ({
    uuid: v.uuid,
    brand: v.brand,
    model: v.model,
    type: v.type,
    circulationDate: v.circulationDate,
    entryDate: v.entryDate,
    exitDate: v.exitDate,
    immatriculation: v.immatriculation,
    immatriculationWarning: v.immatriculation ? checkPlate(v.immatriculation).warning : null,
    ...recordFields(v),
  }),
  counts: true,
};

// ——— Claims ———

/** Rows by uuid, per organization (built once). */
function byUuid<T extends { uuid: string }>(cache: WeakMap<Organization, Map<string, T>>, organization: Organization, rows: T[]): Map<string, T> {
  let map = cache.get(organization);
  if (!map) {
    map = new Map(rows.map((row) => [row.uuid, row]));
    cache.set(organization, map);
  }
  return map;
}
const drivers = new WeakMap<Organization, Map<string, DriverRecord>>();
const vehicules = new WeakMap<Organization, Map<string, VehiculeRecord>>();
const driverOf = (s: SinisterRecord, o: Organization) => (s.driverUuid === null ? null : (byUuid(drivers, o, o.drivers).get(s.driverUuid) ?? null));
const vehiculeOf = (s: SinisterRecord, o: Organization) => (s.vehiculeUuid === null ? null : (byUuid(vehicules, o, o.vehicules).get(s.vehiculeUuid) ?? null));

export const sinistersReference: ListReference<SinisterRecord, SinisterQuery, unknown> = {
  path: '/api/sinister',
  rows: (o) => o.sinisters,
  listed: () => true,
  archivedAt: (s) => s.archivedAt,
  // Reference, plate, city and the driver's "first last" name (archived drivers included).
  searchText: (s, _w, o) => {
    const driver = driverOf(s, o);
    return `${s.sinisterIntermediateRef ?? ''} ${s.immatriculation ?? ''} ${s.city ?? ''} ${driver ? `${driver.firstName} ${driver.lastName}` : ''}`;
  },
  otherSpellings: (term) => [plateSpelling(term)],
  filter: (s, q) => {
    // showDeclared alone: declared only; showNotDeclared alone: the others; both or neither: all.
    if (isTrue(q.showDeclared) !== isTrue(q.showNotDeclared) && s.isDeclared !== isTrue(q.showDeclared)) return false;
    // 'me': at fault in any share (rate > 0); 'other': rate 0; an unknown rate matches neither.
    if (q.responsible === 'me' && !(s.responsibilityRate !== null && s.responsibilityRate > 0)) return false;
    if (q.responsible === 'other' && s.responsibilityRate !== 0) return false;
    // A flag filters when true only.
    if (isTrue(q.hasHumanInjury) && !s.hasHumanInjury) return false;
    if (isTrue(q.damagedVehicule) && !s.damagedVehicule) return false;
    if (isTrue(q.isThirdImplicated) && !s.isThirdImplicated) return false;
    // One guarantee, vehicle or driver: a claim without one matches none.
    if (q.garantee && s.guaranteeUuid !== q.garantee) return false;
    if (q.vehicule && s.vehiculeUuid !== q.vehicule) return false;
    if (q.driver && s.driverUuid !== q.driver) return false;
    // The claim's date within [startDate, endDate], both included.
    if (q.startDate && s.sinisterDate < q.startDate) return false;
    if (q.endDate && s.sinisterDate > q.endDate) return false;
    if (q.status && s.status !== q.status) return false;
    return true;
  },
  // The city in French order (folded); the reference and the claim's own plate as stored; amounts in cents.
  sortKeys: {
    sinisterDate: (s) => [s.sinisterDate],
    sinisterIntermediateRef: (s) => [text(s.sinisterIntermediateRef)],
    city: (s) => [text(s.city === null ? null : fold(s.city))],
    totalCost: (s) => [s.totalCostCents],
    immatriculation: (s) => [text(s.immatriculation)],
    createdAt: (s) => [s.createdAt.getTime()],
  },
  defaultSort: '-sinisterDate',
  uuid: (s) => s.uuid,
  item: (s, w, o) => {
    const vehicule = vehiculeOf(s, o);
    const driver = driverOf(s, o);
    const guarantee = s.guaranteeUuid === null ? null : { uuid: s.guaranteeUuid, label: w.guarantees.get(s.guaranteeUuid)! };
    return {
      uuid: s.uuid,
      sinisterIntermediateRef: s.sinisterIntermediateRef,
      sinisterDate: s.sinisterDate,
      city: s.city,
      ida: s.ida,
      hasHumanInjury: s.hasHumanInjury,
      damagedVehicule: s.damagedVehicule,
      isThirdImplicated: s.isThirdImplicated,
      isDeclared: s.isDeclared,
      responsibilityRate: s.responsibilityRate,
      immatriculation: s.immatriculation,
      vehicule: vehicule && { uuid: vehicule.uuid, immatriculation: vehicule.immatriculation, brand: vehicule.brand, model: vehicule.model },
      driver: driver && { uuid: driver.uuid, firstName: driver.firstName, lastName: driver.lastName },
      totalCost: s.totalCostCents / 100,
      status: s.status,
      openedAt: s.openedAt,
      closedAt: s.closedAt,
      paidAmount: s.paidCents / 100,
      reserveAmount: s.reserveCents / 100,
      description: s.description,
      guarantee,
      ...recordFields(s),
    };
  },
  counts: false,
  // Paid and reserves of every matching claim, in cents summed then in euros (never a float sum).
  sums: (matching) => ({ totalCost: matching.reduce((sum, s) => sum + s.paidCents + s.reserveCents, 0) / 100 }),
};

/** Every text a sort compares in the collation: the reference asks the database to order them. */
export function collatedValues(world: World): string[] {
  const values = new Set<string>();
  const add = (key: Key) => {
    if (key !== null && typeof key === 'object') values.add(key.text);
  };
  for (const organization of world.organizations) {
    for (const [list, rows] of [
      [driversReference, organization.drivers],
      [vehiculesReference, organization.vehicules],
      [sinistersReference, organization.sinisters],
    ] as [ListReference<unknown, CommonQuery, unknown>, unknown[]][]) {
      for (const row of rows) for (const keysOf of Object.values(list.sortKeys)) keysOf(row).forEach(add);
    }
  }
  return [...values];
}
