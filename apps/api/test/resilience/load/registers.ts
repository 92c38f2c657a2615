import type { CreateDriverBody, CreateSinisterBody, CreateVehiculeBody, UpdateDriverBody, UpdateSinisterBody, UpdateVehiculeBody } from '@flotte/contract';
import { FIRST_NAMES, LAST_NAMES, type Tenant } from '../../../../../bench/typical.js';
import { REGISTERS, type Register } from '../../../src/db/schema/registers.js';
import { openApiOperations } from '../../openapi.js';
import { api, login } from '../../process/harness.js';

/**
 * The registers the load goes through, and what it writes into them: every acknowledged write is
 * kept in a ledger and read back once the load is over.
 */

/** Where each register of the schema (db/schema/registers.ts) is served; a new register fails to compile here. */
export const REGISTER_PATHS: Record<Register, string> = { drivers: '/api/driver', vehicules: '/api/vehicule', sinisters: '/api/sinister' };

/**
 * The registers as the OpenAPI document shows them: a collection listed with a search and its
 * archived records, created by POST, changed by PATCH and archived by DELETE on its items. The
 * suite checks this equals REGISTER_PATHS, so a register served but not loaded fails it.
 */
export function registersOfOpenApi(): string[] {
  const operations = openApiOperations();
  const item = (collection: string, method: string) => operations.some((o) => o.method === method && new RegExp(`^${collection}/\\{[^/]+\\}$`).test(o.path));
  return operations
    .filter((o) => {
      const query = new Set((o.operation.parameters ?? []).filter((p) => p.in === 'query').map((p) => p.name));
      return o.method === 'GET' && query.has('search') && query.has('withArchived');
    })
    .map((o) => o.path)
    .filter((path) => operations.some((o) => o.method === 'POST' && o.path === path) && item(path, 'PATCH') && item(path, 'DELETE'))
    .sort();
}

/** One organization as one of its people sees it: the bench's tenant, plus what writes need. */
export type LoadTenant = Tenant & { vehiculeChoices: string[] };

type Row = Record<string, unknown> & { uuid: string };

/** Every record of a register, archived ones included (pages of 1 000). */
export async function everyRecord(origin: string, token: string, register: Register): Promise<Row[]> {
  const rows: Row[] = [];
  for (let page = 1; ; page++) {
    const answer = await api<{ data: Row[] }>(origin, token, 'GET', `${REGISTER_PATHS[register].slice(4)}?limit=1000&page=${page}&withArchived=true&sortBy=createdAt`);
    if (answer.status !== 200) throw new Error(`${register} : liste refusée (${answer.status}) ${JSON.stringify(answer.body)}`);
    rows.push(...answer.body.data);
    if (answer.body.data.length < 1000) return rows;
  }
}

const values = (rows: Row[], key: string) => [...new Set(rows.map((r) => r[key]).filter((v): v is string => typeof v === 'string' && v !== ''))];

/** Logs each account in and reads what its organization holds (names, plates, cities… for the searches). */
export async function loadTenants(origin: string, accounts: { email: string; password: string }[]): Promise<{ tenants: LoadTenant[]; guarantees: string[] }> {
  const tenants: LoadTenant[] = [];
  const guarantees = new Set<string>();
  for (const account of accounts) {
    const token = await login(origin, account);
    const [drivers, vehicules, sinisters] = await Promise.all(REGISTERS.map((r) => everyRecord(origin, token, r)));
    const choices = await api<{ data: { uuid: string }[] }>(origin, token, 'GET', '/vehicule/choices?limit=100');
    const offered = await api<{ uuid: string }[] | { data: { uuid: string }[] }>(origin, token, 'GET', '/guarantees');
    for (const g of Array.isArray(offered.body) ? offered.body : (offered.body?.data ?? [])) guarantees.add(g.uuid);
    if (choices.body.data.length === 0) throw new Error(`${account.email} : aucun véhicule pour déclarer un sinistre`);
    tenants.push({
      uuid: account.email,
      email: account.email,
      token,
      counts: { drivers: drivers!.length, vehicules: vehicules!.length, sinisters: sinisters!.length },
      firstNames: values(drivers!, 'firstName'),
      lastNames: values(drivers!, 'lastName'),
      plates: values(vehicules!, 'immatriculation'),
      brands: values(vehicules!, 'brand'),
      models: values(vehicules!, 'model'),
      types: values(vehicules!, 'type'),
      cities: values(sinisters!, 'city'),
      refs: values(sinisters!, 'sinisterIntermediateRef'),
      vehiculeChoices: choices.body.data.map((v) => v.uuid),
    });
  }
  return { tenants, guarantees: [...guarantees] };
}

/** What the server acknowledged, per record: created, then maybe changed (the last value) and archived. */
export type Acknowledged = {
  register: Register;
  marker: string;
  update?: { field: string; value: string };
  archived: boolean;
  /** Changes sent and not answered (yet): one in flight when the load stops may be stored without its answer being read. */
  unanswered: Set<string>;
};

export type Write = {
  kind: `${'create' | 'update' | 'archive'}.${Register}`;
  method: 'POST' | 'PATCH' | 'DELETE';
  path: string;
  body?: string;
  /** Called with the answer; true when the server acknowledged the write (its record then in the ledger). */
  answered(status: number, body: string): boolean;
};

const today = () => new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Paris' }).format(new Date());
const UPDATED: Record<Register, string> = { drivers: 'email', vehicules: 'model', sinisters: 'description' };

/**
 * The writes of a run: unique markers (a run's prefix and a counter) in what each creation writes,
 * so that a record is found afterwards, and the ledger of what was acknowledged.
 */
export class Writes {
  readonly ledger = new Map<string, Acknowledged>();
  /** Markers of the creations the server refused or never answered (503 during a shutdown…). */
  readonly unacknowledged = new Set<string>();
  private counter = 0;
  private readonly prefix = Math.floor(Math.random() * 36 ** 3).toString(36).padStart(3, '0').toUpperCase();

  /** A creation in one register for one organization. */
  create(tenant: LoadTenant, register: Register): Write & { marker: string } {
    const n = ++this.counter;
    const id = `${this.prefix}${n.toString(36).toUpperCase()}`;
    let body: CreateDriverBody | CreateVehiculeBody | CreateSinisterBody;
    let marker: string;
    if (register === 'drivers') {
      marker = `charge.${id}@essai-charge.fr`.toLowerCase();
      body = { firstName: FIRST_NAMES[n % FIRST_NAMES.length]!, lastName: LAST_NAMES[n % LAST_NAMES.length]!, email: marker, phone: `+336${String(n).padStart(8, '0')}` };
    } else if (register === 'vehicules') {
      marker = `CH${id}`;
      body = { brand: 'Renault', model: 'Master', type: 'VUL', immatriculation: marker };
    } else {
      marker = `CHG-${id}`;
      body = { sinisterIntermediateRef: marker, sinisterDate: today(), city: 'Lyon', vehicule: tenant.vehiculeChoices[n % tenant.vehiculeChoices.length]! };
    }
    return {
      kind: `create.${register}`,
      method: 'POST',
      path: REGISTER_PATHS[register],
      body: JSON.stringify(body),
      marker,
      answered: (status, text) => {
        if (status !== 201) {
          this.unacknowledged.add(marker);
          return false;
        }
        this.ledger.set((JSON.parse(text) as { uuid: string }).uuid, { register, marker, archived: false, unanswered: new Set() });
        return true;
      },
    };
  }

  /** A change of a record this run created (the field each register's list shows back). */
  update(uuid: string): Write {
    const record = this.ledger.get(uuid)!;
    const n = ++this.counter;
    const value = record.register === 'drivers' ? `maj.${this.prefix}.${n}@essai-charge.fr`.toLowerCase() : `Révision ${this.prefix} ${n}`;
    const body: UpdateDriverBody | UpdateVehiculeBody | UpdateSinisterBody = { [UPDATED[record.register]]: value };
    record.unanswered.add(value);
    return {
      kind: `update.${record.register}`,
      method: 'PATCH',
      path: `${REGISTER_PATHS[record.register]}/${uuid}`,
      body: JSON.stringify(body),
      answered: (status) => {
        record.unanswered.delete(value);
        if (status !== 200) return false;
        record.update = { field: UPDATED[record.register], value };
        return true;
      },
    };
  }

  archive(uuid: string): Write {
    const record = this.ledger.get(uuid)!;
    return {
      kind: `archive.${record.register}`,
      method: 'DELETE',
      path: `${REGISTER_PATHS[record.register]}/${uuid}`,
      answered: (status) => {
        if (status !== 200) return false;
        record.archived = true;
        return true;
      },
    };
  }

  /** Reads every register of each organization back and lists what the ledger holds that the database does not. */
  async missing(origin: string, tokens: string[]): Promise<{ stored: number; missing: string[]; storedMarkers: Set<string> }> {
    const stored = new Map<string, Row>();
    for (const token of tokens) {
      for (const register of REGISTERS) for (const row of await everyRecord(origin, token, register)) stored.set(row.uuid, row);
    }
    const storedMarkers = new Set<string>();
    for (const row of stored.values()) for (const key of ['email', 'immatriculation', 'sinisterIntermediateRef']) if (typeof row[key] === 'string') storedMarkers.add(row[key]);
    const missing: string[] = [];
    for (const [uuid, record] of this.ledger) {
      const row = stored.get(uuid);
      if (!row) missing.push(`${record.register} ${record.marker} (${uuid}) absent`);
      else if (record.update && row[record.update.field] !== record.update.value && !record.unanswered.has(String(row[record.update.field])))
        missing.push(`${record.register} ${uuid} : ${record.update.field} = ${String(row[record.update.field])}, attendu ${record.update.value}`);
      else if (record.archived && row.isArchived !== true) missing.push(`${record.register} ${uuid} : archivage perdu`);
    }
    return { stored: this.ledger.size - missing.length, missing, storedMarkers };
  }
}

/**
 * One connection's writes: creations into every register in turn, then changes and archives of
 * what it created (each record is written by one connection only, so its last acknowledged change
 * is what must be stored).
 */
export class Writer {
  private turn = 0;
  private readonly own = new Map<string, string[]>();

  constructor(private readonly writes: Writes) {}

  next(tenant: LoadTenant): Write {
    const register = REGISTERS[this.turn % REGISTERS.length]!;
    const action = Math.floor(this.turn / REGISTERS.length) % 4; // create, update, create, archive
    this.turn++;
    const own = this.own.get(tenant.token) ?? [];
    this.own.set(tenant.token, own);
    const mine = own.filter((uuid) => this.writes.ledger.get(uuid)?.register === register);
    if (action === 1 && mine.length > 0) return this.writes.update(mine[mine.length - 1]!);
    if (action === 3 && mine.length > 0) {
      const uuid = mine[0]!;
      own.splice(own.indexOf(uuid), 1);
      return this.writes.archive(uuid);
    }
    const write = this.writes.create(tenant, register);
    return {
      ...write,
      answered: (status, body) => {
        const acknowledged = write.answered(status, body);
        if (acknowledged) own.push((JSON.parse(body) as { uuid: string }).uuid);
        return acknowledged;
      },
    };
  }
}
