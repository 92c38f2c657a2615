import { CHOICES_LIMIT } from '@flotte/contract';
/**
 * The load of many organizations: each autocannon connection is a person of a typical
 * organization going through the registers as the web app makes them do (page 1, a term typed
 * a few letters at a time, a filter, a sort, a later page, the claim form's lists, now and then
 * a new driver), then another person of another organization. The URLs are the web app's own
 * (same parameters, same order, defaults included), so hardly any request repeats the previous
 * one. Also: the giant organization's searches (fairness), and the logins.
 */
import autocannon from 'autocannon';
import { CREATED_DOMAIN, FIRST_NAMES, LAST_NAMES, rng, type Rng, type Tenant } from './typical.js';

export const KINDS = {
  'drivers.page1': 'Conducteurs — page 1',
  'drivers.search': 'Conducteurs — recherche tapée',
  'drivers.filter': 'Conducteurs — archivés / tous',
  'drivers.sort': 'Conducteurs — tri',
  'drivers.page': 'Conducteurs — page suivante',
  'vehicules.page1': 'Véhicules — page 1',
  'vehicules.search': 'Véhicules — recherche tapée (plaque, marque)',
  'vehicules.filter': 'Véhicules — catégories, période',
  'vehicules.sort': 'Véhicules — tri',
  'vehicules.page': 'Véhicules — page suivante',
  'sinisters.page1': 'Sinistres — page 1 (année en cours)',
  'sinisters.search': 'Sinistres — recherche tapée (ville, plaque, référence, conducteur)',
  'sinisters.filter': 'Sinistres — options, période',
  'sinisters.sort': 'Sinistres — tri',
  'sinisters.page': 'Sinistres — page suivante',
  'form.vehicules': 'Formulaire sinistre — choix des véhicules',
  'form.drivers': 'Formulaire sinistre — choix des conducteurs',
  'create.driver': "Création d'un conducteur (POST)",
} as const;
export type Kind = keyof typeof KINDS;
export const KIND_IDS = Object.keys(KINDS) as Kind[];

type Register = 'drivers' | 'vehicules' | 'sinisters';
type Action = 'type' | 'search' | 'clear' | 'filter' | 'sort' | 'page' | 'form' | 'create' | 'register' | 'tenant';
type Step = { kind: Kind; method: 'GET' | 'POST'; path: string; body?: string; list: boolean };
type View = { page: number; search: string; sortBy: string; archive: 'active' | 'archived' | 'all'; filters: Record<string, string> };

const REGISTERS: Register[] = ['drivers', 'vehicules', 'sinisters'];
const PATHS: Record<Register, string> = { drivers: '/api/driver', vehicules: '/api/vehicule', sinisters: '/api/sinister' };
const DEFAULT_SORT: Record<Register, string> = { drivers: 'lastName', vehicules: 'immatriculation', sinisters: '-sinisterDate' };
const SORTS: Record<Register, string[]> = {
  drivers: ['lastName', 'firstName', 'email', 'phone', 'createdAt'],
  vehicules: ['immatriculation', 'brand', 'model', 'type', 'circulationDate', 'entryDate', 'exitDate', 'createdAt'],
  sinisters: ['sinisterDate', 'sinisterIntermediateRef', 'city', 'totalCost', 'immatriculation', 'createdAt'],
};
// The order in which the web app writes its filters (useListSearchParams: the defaults' keys).
const FILTERS: Record<Register, string[]> = {
  drivers: [],
  vehicules: ['types', 'start', 'end'],
  sinisters: ['hasHumanInjury', 'damagedVehicule', 'isThirdImplicated', 'showDeclared', 'showNotDeclared', 'responsible', 'garantee', 'startDate', 'endDate'],
};
const TOGGLES = ['hasHumanInjury', 'damagedVehicule', 'isThirdImplicated', 'showDeclared', 'showNotDeclared', 'responsible', 'garantee'];
// How often a person does what next (relative weights); 'type' only while typing a term.
const WEIGHTS: Record<Action, number> = { type: 70, search: 18, clear: 4, filter: 14, sort: 10, page: 14, form: 5, create: 2, register: 12, tenant: 8 };

const parisDate = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Paris', year: 'numeric', month: '2-digit', day: '2-digit' });
const TODAY = parisDate.format(new Date());
const YEAR = Number(TODAY.slice(0, 4));

const fold = (s: string) => s.normalize('NFD').replace(/\p{M}/gu, '');
const pick = <T>(random: Rng, values: readonly T[]): T => values[Math.floor(random() * values.length)]!;

/** `AB123CD` as a person types it: `AB`, `AB-1`, `AB-12`… or `ab`, `ab1`, `ab12`… */
function plateKeystrokes(random: Rng, plate: string): string[] {
  const dashes = random() < 0.5;
  const shown = dashes ? `${plate.slice(0, 2)}-${plate.slice(2, 5)}-${plate.slice(5)}` : plate.toLowerCase();
  const steps: string[] = [];
  for (let n = 2; n <= shown.length; n++) if (!shown.endsWith('-', n)) steps.push(shown.slice(0, n));
  return steps.slice(0, 2 + Math.floor(random() * 3));
}

/** A word typed a letter at a time, from `from` letters up to 3–6, lower case, accents kept or not. */
function wordKeystrokes(random: Rng, word: string, from = 1): string[] {
  const typed = (random() < 0.5 ? fold(word) : word).toLowerCase();
  const upTo = Math.min(typed.length, 3 + Math.floor(random() * 4));
  const steps: string[] = [];
  for (let n = from; n <= upTo; n++) steps.push(typed.slice(0, n));
  return steps.length > 0 ? steps : [typed];
}

/** One person of one organization at a time, going from one view of the registers to the next. */
export class Person {
  tenant!: Tenant;
  current!: Step;
  private register: Register = 'drivers';
  private view!: View;
  private typing: string[] = [];
  private nbOfPages = 1;
  private queue: Step[] = [];

  constructor(
    private readonly tenants: Tenant[],
    private readonly guarantees: string[],
    private readonly random: Rng,
    /** Sequential measure: prefer actions whose kind still lacks samples. */
    private readonly wants?: (kind: Kind) => boolean,
  ) {}

  next(): Step {
    const previous = this.current && `${this.tenant.uuid} ${this.current.path}`;
    let step = this.queue.shift() ?? (this.tenant ? this.act() : this.arrive());
    // A click that changes nothing (a filter set again, "clear" on a clear view) sends nothing.
    for (let i = 0; i < 5 && step.method === 'GET' && `${this.tenant.uuid} ${step.path}` === previous; i++) step = this.act();
    this.current = step;
    return step;
  }

  /** The answer to `current`: a list tells how many pages its view has. */
  answered(status: number, body: string) {
    if (!this.current.list || status !== 200) return;
    const at = body.lastIndexOf('"nbOfPages":');
    if (at >= 0) this.nbOfPages = parseInt(body.slice(at + 12, at + 24), 10) || 1;
  }

  /** Another person, of a random organization, opening a register. */
  private arrive(register?: Register): Step {
    this.tenant = pick(this.random, this.tenants);
    return this.open(register ?? pick(this.random, REGISTERS));
  }

  private open(register: Register): Step {
    this.register = register;
    this.view = { page: 1, search: '', sortBy: DEFAULT_SORT[register], archive: 'active', filters: this.defaultFilters(register) };
    this.typing = [];
    this.nbOfPages = Math.max(1, Math.ceil(this.tenant.counts[register] / 10));
    return this.list(`${register}.page1`);
  }

  private defaultFilters(register: Register): Record<string, string> {
    // SPEC 9: the claims register opens on this year, from 1 January to today.
    return register === 'sinisters' ? { startDate: `${YEAR}-01-01`, endDate: TODAY } : {};
  }

  private kindOf(action: Action): Kind | null {
    const r = this.register;
    switch (action) {
      case 'type':
        return this.typing.length > 0 ? `${r}.search` : null;
      case 'search':
        return `${r}.search`;
      case 'clear':
        return `${r}.page1`;
      case 'filter':
        return `${r}.filter`;
      case 'sort':
        return `${r}.sort`;
      case 'page':
        return this.view.page < this.nbOfPages ? `${r}.page` : null;
      case 'form':
        return this.wants?.('form.vehicules') === false ? 'form.drivers' : 'form.vehicules';
      case 'create':
        return 'create.driver';
      case 'register':
      case 'tenant':
        return null; // the kind depends on the register opened: always possible
    }
  }

  private act(): Step {
    const actions = (Object.keys(WEIGHTS) as Action[]).filter((a) => (a === 'type' ? this.typing.length > 0 : a !== 'page' || this.kindOf(a)));
    let choices = actions;
    if (this.wants) {
      const wanted = actions.filter((a) => {
        const kind = this.kindOf(a);
        return kind ? this.wants!(kind) : REGISTERS.some((r) => this.wants!(`${r}.page1`));
      });
      if (wanted.length > 0) choices = wanted;
    }
    // Someone who stops typing goes on with what they found.
    if (this.typing.length > 0 && this.random() < 0.25) this.typing = [];
    const weights = choices.map((a) => (a === 'type' && this.typing.length === 0 ? 0 : WEIGHTS[a]));
    let roll = this.random() * weights.reduce((s, w) => s + w, 0);
    let action = choices[choices.length - 1]!;
    for (let i = 0; i < choices.length; i++) {
      roll -= weights[i]!;
      if (roll < 0) {
        action = choices[i]!;
        break;
      }
    }
    if (action !== 'type') this.typing = [];
    return this.do(action);
  }

  private otherRegister(): Register {
    const others = REGISTERS.filter((r) => r !== this.register);
    const wanted = this.wants ? others.filter((r) => this.wants!(`${r}.page1`)) : [];
    return pick(this.random, wanted.length > 0 ? wanted : others);
  }

  private do(action: Action): Step {
    const view = this.view;
    switch (action) {
      case 'type':
        view.search = this.typing.shift()!;
        view.page = 1;
        return this.list(`${this.register}.search`);
      case 'search':
        this.typing = this.term();
        view.search = this.typing.shift()!;
        view.page = 1;
        return this.list(`${this.register}.search`);
      case 'clear':
        return this.open(this.register);
      case 'filter':
        this.filter();
        view.page = 1;
        return this.list(`${this.register}.filter`);
      case 'sort': {
        const columns = SORTS[this.register].filter((c) => c !== view.sortBy.replace(/^-/, ''));
        view.sortBy = `${this.random() < 0.4 ? '-' : ''}${pick(this.random, columns)}`;
        view.page = 1;
        return this.list(`${this.register}.sort`);
      }
      case 'page':
        // Mostly the next page, sometimes the last one.
        view.page = this.random() < 0.75 ? view.page + 1 : this.nbOfPages;
        return this.list(`${this.register}.page`);
      case 'form': {
        // The claim form asks for both choice lists at once (CHOICES_LIMIT rows, light); the person stays on the claims register.
        const vehicles: Step = { kind: 'form.vehicules', method: 'GET', path: `/api/vehicule/choices?page=1&limit=${CHOICES_LIMIT}&sortBy=immatriculation`, list: false };
        const drivers: Step = { kind: 'form.drivers', method: 'GET', path: `/api/driver/choices?page=1&limit=${CHOICES_LIMIT}&sortBy=lastName`, list: false };
        if (this.wants?.('form.vehicules') === false) return drivers;
        this.queue.push(drivers);
        return vehicles;
      }
      case 'create': {
        // From the drivers register; the list is read again once the driver is saved.
        const firstName = pick(this.random, FIRST_NAMES);
        const lastName = pick(this.random, LAST_NAMES);
        const id = Math.floor(this.random() * 1e9).toString(36);
        const phone = `0${6 + Math.floor(this.random() * 2)} ${Array.from({ length: 4 }, () => String(Math.floor(this.random() * 100)).padStart(2, '0')).join(' ')}`;
        const body = JSON.stringify({ firstName, lastName, email: `${fold(firstName)}.${fold(lastName)}.${id}@${CREATED_DOMAIN}`.toLowerCase().replace(/ /g, ''), phone });
        this.queue.push(this.open('drivers'));
        return { kind: 'create.driver', method: 'POST', path: '/api/driver', body, list: false };
      }
      case 'register':
        return this.open(this.otherRegister());
      case 'tenant':
        return this.arrive(this.wants ? this.otherRegister() : undefined);
    }
  }

  /** What a person types in this register's search field, keystroke by keystroke. */
  private term(): string[] {
    const t = this.tenant;
    const r = this.random();
    const name = () => (this.random() < 0.75 ? pick(this.random, t.lastNames) : pick(this.random, t.firstNames));
    if (this.register === 'drivers') return wordKeystrokes(this.random, name());
    if (this.register === 'vehicules') {
      if (r < 0.6 && t.plates.length > 0) return plateKeystrokes(this.random, pick(this.random, t.plates));
      return wordKeystrokes(this.random, this.random() < 0.7 ? pick(this.random, t.brands) : pick(this.random, t.models), 2);
    }
    if (r < 0.4) return wordKeystrokes(this.random, pick(this.random, t.cities), 2);
    if (r < 0.65 && t.plates.length > 0) return plateKeystrokes(this.random, pick(this.random, t.plates));
    if (r < 0.85 && t.refs.length > 0) {
      // The number part of a reference (AXA-2024-004217 → 0042, 00421…) or its year.
      const ref = pick(this.random, t.refs);
      const digits = ref.slice(ref.lastIndexOf('-') + 1);
      return this.random() < 0.7 ? [digits.slice(0, 4), digits.slice(0, 5), digits] : [ref.slice(0, ref.lastIndexOf('-'))];
    }
    return wordKeystrokes(this.random, name());
  }

  private filter() {
    const f = this.view.filters;
    if (this.register === 'drivers') {
      const views = (['archived', 'all', 'active'] as const).filter((v) => v !== this.view.archive);
      this.view.archive = pick(this.random, views);
      return;
    }
    if (this.register === 'vehicules') {
      if (this.random() < 0.5) {
        if (f.types && this.random() < 0.3) delete f.types;
        else {
          const types = [...new Set([pick(this.random, this.tenant.types), ...(this.random() < 0.4 ? [pick(this.random, this.tenant.types)] : [])])];
          f.types = types.join(',');
        }
      } else if (f.start && this.random() < 0.3) {
        delete f.start;
        delete f.end;
      } else {
        const year = YEAR - Math.floor(this.random() * 6);
        f.start = `${year}-01-01`;
        f.end = year === YEAR ? TODAY : `${year}-12-31`;
      }
      return;
    }
    if (this.random() < 0.6) {
      const toggle = pick(this.random, TOGGLES);
      if (f[toggle]) delete f[toggle];
      else if (toggle === 'responsible') f.responsible = this.random() < 0.5 ? 'me' : 'other';
      else if (toggle === 'garantee') f.garantee = pick(this.random, this.guarantees);
      else {
        f[toggle] = 'true';
        // Declared and not declared exclude each other in the filter panel.
        if (toggle === 'showDeclared') delete f.showNotDeclared;
        if (toggle === 'showNotDeclared') delete f.showDeclared;
      }
      const set = TOGGLES.filter((t) => f[t]);
      if (set.length > 2) delete f[set[0]!];
    } else {
      const year = YEAR - Math.floor(this.random() * 5);
      const since = this.random() < 0.25;
      f.startDate = since ? `${YEAR - 4}-01-01` : `${year}-01-01`;
      f.endDate = since || year === YEAR ? TODAY : `${year}-12-31`;
    }
  }

  private list(kind: Kind): Step {
    const v = this.view;
    const query = new URLSearchParams({ page: String(v.page), limit: '10', sortBy: v.sortBy });
    if (v.search) query.set('search', v.search);
    if (v.archive === 'archived') query.set('onlyArchived', 'true');
    if (v.archive === 'all') query.set('withArchived', 'true');
    for (const name of FILTERS[this.register]) if (v.filters[name]) query.set(name, v.filters[name]);
    return { kind, method: 'GET', path: `${PATHS[this.register]}?${query}`, list: true };
  }
}

/** Latencies and statuses by kind, and how often a URL comes back. */
export class MixStats {
  readonly byKind = new Map<Kind, { latencies: number[]; statuses: Map<number, number> }>();
  total = 0;
  sameAsPrevious = 0;
  seenInOrganization = 0;
  private readonly seen = new Set<string>();
  private readonly previous = new WeakMap<Person, string>();

  record(person: Person, status: number, ms: number) {
    const step = person.current;
    let entry = this.byKind.get(step.kind);
    if (!entry) this.byKind.set(step.kind, (entry = { latencies: [], statuses: new Map() }));
    entry.latencies.push(ms);
    entry.statuses.set(status, (entry.statuses.get(status) ?? 0) + 1);
    this.total++;
    if (step.method === 'GET') {
      const key = `${person.tenant.uuid} ${step.path}`;
      if (this.previous.get(person) === key) this.sameAsPrevious++;
      if (this.seen.has(key)) this.seenInOrganization++;
      this.seen.add(key);
      this.previous.set(person, key);
    }
  }

  count(kind: Kind) {
    return this.byKind.get(kind)?.latencies.length ?? 0;
  }
}

export function percentile(sorted: number[], p: number) {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

export type LoadResult = {
  requests: number;
  total: number;
  p50: number;
  p90: number;
  p99: number;
  errors: number;
  timeouts: number;
  non2xx: number;
  statuses: Record<string, number>;
};

/** An autocannon run as the tables show it (also read by the resilience suite's load, apps/api/test/resilience). */
export function summarize(result: autocannon.Result): LoadResult {
  const statuses: Record<string, number> = {};
  for (const [code, stat] of Object.entries(result.statusCodeStats ?? {})) statuses[code] = (stat as { count: number }).count;
  return {
    requests: result.requests.average,
    total: result.requests.total,
    p50: result.latency.p50,
    p90: result.latency.p90,
    p99: result.latency.p99,
    errors: result.errors - result.timeouts,
    timeouts: result.timeouts,
    non2xx: result.non2xx,
    statuses,
  };
}

let personSeed = 1;
/** Seconds without an answer before autocannon counts a request as timed out (its default). */
export const MIX_TIMEOUT = 10;

export type MixOptions = {
  origin: string;
  tenants: Tenant[];
  guarantees: string[];
  connections: number;
  duration: number;
  stats?: MixStats;
  wants?: (kind: Kind) => boolean;
  /** Sequential measure: stop once this says so (checked after each answer). */
  done?: () => boolean;
};

/** The typical organizations' mix with autocannon: each connection one person after another. */
export function runMix(options: MixOptions): Promise<LoadResult> {
  const stats = options.stats ?? new MixStats();
  return new Promise((resolve, reject) => {
    const instance = autocannon(
      {
        url: options.origin,
        connections: options.connections,
        duration: options.duration,
        timeout: MIX_TIMEOUT,
        setupClient(client) {
          const person = new Person(options.tenants, options.guarantees, rng(personSeed++ * 7919), options.wants);
          client.setRequests([
            {
              setupRequest(request) {
                const step = person.next();
                return {
                  ...request,
                  method: step.method,
                  path: step.path,
                  headers: { authorization: `Bearer ${person.tenant.token}`, ...(step.body ? { 'content-type': 'application/json' } : {}) },
                  body: step.body ?? '',
                };
              },
              onResponse(status, body) {
                person.answered(status, body);
              },
            },
          ]);
          client.on('response', (status: number, _bytes: number, ms: number) => {
            stats.record(person, status, ms);
            if (options.done?.()) instance.stop();
          });
        },
      },
      (err, result) => (err ? reject(err) : resolve(summarize(result))),
    );
  });
}

/** The giant organization searching (computed afresh): the terms that cost the most. */
function giantSearch(random: Rng, today: string): string {
  const r = random();
  const letters = 'ABCDEFGHJKLMNPQRSTVWXYZ';
  const letter = () => letters[Math.floor(random() * letters.length)]!;
  const query = (register: Register, search: string) => {
    const q = new URLSearchParams({ page: '1', limit: '10', sortBy: random() < 0.7 ? DEFAULT_SORT[register] : pick(random, SORTS[register]), search });
    if (register === 'sinisters' && random() < 0.5) {
      q.set('startDate', `${today.slice(0, 4)}-01-01`);
      q.set('endDate', today);
    }
    return `${PATHS[register]}?${q}`;
  };
  if (r < 0.12) return query('drivers', 'martin');
  if (r < 0.22) return query('drivers', 'conducteur4242');
  if (r < 0.32) return query('sinisters', 'B0042');
  if (r < 0.6) {
    const name = pick(random, LAST_NAMES.slice(0, 50));
    const typed = (random() < 0.5 ? fold(name) : name).toLowerCase();
    return query('drivers', typed.slice(0, 2 + Math.floor(random() * 5)));
  }
  // Plate prefixes: AB, AB-1, AB1, AB-12, AB12, AB-123…
  const plate = `${letter()}${letter()}${String(1 + Math.floor(random() * 999)).padStart(3, '0')}`;
  const dashes = random() < 0.5;
  const shown = dashes ? `${plate.slice(0, 2)}-${plate.slice(2)}` : plate;
  const length = 2 + Math.floor(random() * (shown.length - 1));
  const search = shown.slice(0, length).replace(/-$/, '');
  return query(random() < 0.8 ? 'vehicules' : 'sinisters', search);
}

/** The giant's searches with `Cache-Control: no-cache`, each request a new term. */
export function runGiant(options: { origin: string; token: string; connections: number; duration: number; timeout: number }): Promise<LoadResult> {
  let seed = 424242;
  return new Promise((resolve, reject) => {
    autocannon(
      {
        url: options.origin,
        connections: options.connections,
        duration: options.duration,
        timeout: options.timeout,
        setupClient(client) {
          const random = rng(seed++);
          client.setRequests([
            {
              setupRequest(request) {
                return {
                  ...request,
                  method: 'GET',
                  path: giantSearch(random, TODAY),
                  headers: { authorization: `Bearer ${options.token}`, 'cache-control': 'no-cache' },
                };
              },
            },
          ]);
        },
      },
      (err, result) => (err ? reject(err) : resolve(summarize(result))),
    );
  });
}

/** Plain autocannon on one URL (the ceilings). */
export function runUrl(url: string, connections: number, duration: number): Promise<LoadResult> {
  return new Promise((resolve, reject) => {
    autocannon({ url, connections, duration }, (err, result) => (err ? reject(err) : resolve(summarize(result))));
  });
}

/** Logs every tenant's user in (a few at a time: argon2 costs ≈ 10 ms of the server's CPU each). */
export async function logIn(origin: string, emails: string[], password: string): Promise<string[]> {
  const tokens: string[] = new Array(emails.length);
  let next = 0;
  const worker = async () => {
    while (next < emails.length) {
      const i = next++;
      for (let attempt = 0; ; attempt++) {
        const response = await fetch(`${origin}/api/auth/login`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ email: emails[i], password }),
        });
        if (response.ok) {
          tokens[i] = ((await response.json()) as { tokens: { access_token: string } }).tokens.access_token;
          break;
        }
        if ((response.status !== 429 && response.status < 500) || attempt >= 5) {
          throw new Error(`connexion de ${emails[i]} refusée : ${response.status} ${await response.text()}`);
        }
        await new Promise((r) => setTimeout(r, 2000 * (attempt + 1)));
      }
    }
  };
  await Promise.all(Array.from({ length: 4 }, worker));
  return tokens;
}
