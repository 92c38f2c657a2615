import { CSRF_HEADER, CSRF_HEADER_VALUE, ErrorSchema } from '@flotte/contract';
import fc from 'fast-check';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { z } from 'zod';
import { createDrivers, createSinisters, createVehicules, DEFAULT_TEST_PASSWORD } from '../src/seed/factories.js';
import { type EnvironmentFixtures, openEnvironments } from './fixtures/environments.js';
import { type OpenApiOperation as Operation, type OpenApiSchema as Schema, openApiOperations } from './openapi.js';
import type { TestContext } from './test-app.js';

/**
 * Issue 9, "input never causes a 5xx", as an attacker tries it: every operation of the committed
 * OpenAPI document, as every role and as nobody, with generated path parameters, query strings
 * and bodies — well-formed values and hostile ones (NUL, lone surrogates, bidi controls, 10 000
 * characters, dates out of range, huge and negative numbers, wrong types, extra keys). No answer
 * may be a 5xx, and every error carries the envelope { statusCode, error, message, details? }.
 * A new route is fuzzed as soon as `npm run openapi` writes it into the document.
 *
 * The file has its own database (a copy of the run's template): what the requests write stays there.
 * Reproduce: FUZZ_SEED=<seed printed on failure> (and FUZZ_RUNS=<runs per operation and role> to
 * explore further); the failing request is printed with the assertion.
 */

const SEED = Number(process.env.FUZZ_SEED ?? 9);
// Runs per operation and caller. PGlite answers more slowly: fewer runs keep the file about half a
// minute on each database on this 2-core machine (before issue 9, these runs found 500s on several routes).
const RUNS = Number(process.env.FUZZ_RUNS ?? (inject('testDb').kind === 'pglite' ? 3 : 10));
const LONG = 120_000;

const OPERATIONS = openApiOperations();

/** Who calls: every role of the SPEC, and nobody. */
const CALLERS = ['root', 'super-a', 'admin-a', 'user-a', null] as const;
type Caller = (typeof CALLERS)[number];

let t: TestContext;
let f: EnvironmentFixtures;
let tokens: Record<string, string>;
/** Real ids, so that generated requests also reach records and not only 404s. */
let knownIds: string[] = [];

beforeAll(async () => {
  ({ t, f, tokens } = await openEnvironments(['root', 'super-a', 'admin-a', 'user-a']));
  const rows = await t.seed(async (tx) => {
    const drivers = await createDrivers(tx, f.orgA1.uuid, [{ firstName: 'Anne', lastName: 'Témoin', email: 'anne@exemple.fr' }, {}]);
    const vehicules = await createVehicules(tx, f.orgA1.uuid, [{ immatriculation: 'GH-123-JK' }, { archivedAt: new Date() }]);
    const sinisters = await createSinisters(tx, f.orgA1.uuid, [{ vehiculeUuid: vehicules[0]!.uuid, driverUuid: drivers[0]!.uuid }]);
    return [...drivers, ...vehicules, ...sinisters].map((row) => row.uuid);
  });
  const guarantees = (await t.as(tokens['admin-a']!, { method: 'GET', url: '/api/guarantees' })).json<{ uuid: string }[]>();
  const me = (await t.as(tokens['admin-a']!, { method: 'GET', url: '/api/auth/me' })).json<{ uuid: string; currentOrganizationUser: { uuid: string } }>();
  knownIds = [
    ...rows,
    ...guarantees.slice(0, 3).map((g) => g.uuid),
    f.envA.uuid,
    f.envB.uuid,
    f.orgA1.uuid,
    f.orgB1.uuid,
    f.superA.uuid,
    f.superALink.uuid,
    me.uuid,
    me.currentOrganizationUser.uuid,
  ];
}, LONG);
afterAll(() => t?.close());

/**
 * A caller whose session an operation ended (a logout) logs in again, from an address of its own
 * so that the fuzzed logins' failures do not hold it back.
 */
async function keepSessions() {
  for (const caller of CALLERS) {
    if (!caller) continue;
    const me = await t.as(tokens[caller]!, { method: 'GET', url: '/api/auth/me' });
    if (me.statusCode !== 401) continue;
    const login = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      remoteAddress: '10.99.0.1',
      payload: { email: `${caller}@exemple.fr`, password: DEFAULT_TEST_PASSWORD },
    });
    expect(login.statusCode, login.body).toBe(200);
    tokens[caller] = login.json<{ tokens: { access_token: string } }>().tokens.access_token;
  }
}

// ---------------------------------------------------------------------------------------------
// Values
// ---------------------------------------------------------------------------------------------

const anyCodeUnit = fc.nat(0xffff).map((code) => String.fromCharCode(code));

/** What answered 500 before issue 9: NUL, lone surrogates, very long text, dates PostgreSQL cannot store. */
const killerString = fc.constantFrom(
  '\u0000',
  'a\u0000b',
  '\ud800',
  'x\udc00y',
  '\udfff\ud800',
  'a'.repeat(10_000),
  `${'x'.repeat(3_000)}@exemple.fr`,
  '0000-01-01',
  '9999-12-31',
  '2101-01-01',
);

/** Other strings an attacker tries on any text field. */
const hostileString = fc.oneof(
  fc.constantFrom(
    '\u202eevil\u202c',
    '\u2066isolé\u2069\u200f',
    '\ufeff',
    ' '.repeat(300),
    '💥'.repeat(5_000),
    "'; drop table drivers; --",
    '%_\\',
    '../../etc/passwd',
    '<script>alert(1)</script>',
    '{{7*7}}',
    '0000-01-01',
    '9999-12-31',
    '-0001-01-01',
    '2024-02-30',
    '1899-12-31',
    '00000000-0000-0000-0000-000000000000',
    'ffffffff-ffff-ffff-ffff-ffffffffffff',
    'NaN',
    'Infinity',
    '-1',
    '1e400',
    '9007199254740993',
    'true',
    'null',
  ),
  fc.string({ unit: anyCodeUnit, maxLength: 40 }),
  fc.string({ unit: 'grapheme', maxLength: 40 }),
);

/** Values of every JSON type, for a field that expects another. */
const wrongType = fc.oneof(
  fc.constantFrom(null, true, false, 0, -1, 1.5, 1e308, -1e308, 2 ** 53 + 2, 2 ** 63, Number.MIN_VALUE, [], {}, [null], { uuid: null }),
  fc.array(fc.string({ maxLength: 5 }), { maxLength: 3 }),
  fc.dictionary(fc.string({ maxLength: 8 }), fc.string({ maxLength: 8 }), { maxKeys: 3 }),
);

/** Everything hostile, whatever the field: the known killers first, then anything. */
const hostile: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 3, arbitrary: killerString },
  { weight: 2, arbitrary: hostileString },
  { weight: 1, arbitrary: wrongType },
);

const isoDay = fc
  .date({ min: new Date('1900-01-01T00:00:00Z'), max: new Date('2100-12-31T00:00:00Z'), noInvalidDate: true })
  .map((d) => d.toISOString().slice(0, 10));
const pastDay = fc
  .date({ min: new Date('1990-01-01T00:00:00Z'), max: new Date('2025-12-31T00:00:00Z'), noInvalidDate: true })
  .map((d) => d.toISOString().slice(0, 10));

/**
 * Strings a form could send, so that most requests pass validation and reach the services: the
 * field's name says what it holds when it is an e-mail, a phone, a link or a plate.
 */
function plausibleString(name: string, schema: Schema): fc.Arbitrary<string> {
  const max = Math.min(schema.maxLength ?? 60, 60);
  const min = Math.min(Math.max(schema.minLength ?? 0, 0), max);
  const fits = (s: string) => s.length >= min && s.length <= max;
  if (/e-?mail/i.test(name)) return fc.stringMatching(/^[a-z][a-z0-9.-]{0,20}[a-z0-9]@(exemple\.fr|flotte\.com)$/).filter(fits);
  if (/phone/i.test(name)) return fc.constantFrom('06 12 34 56 78', '+33 1 23 45 67 89', '0712345678').filter(fits);
  if (/url/i.test(name)) return fc.webUrl({ validSchemes: ['https'] }).filter(fits);
  if (/immatriculation|plate/i.test(name)) return fc.stringMatching(/^[A-HJ-NP-TV-Z]{2}-\d{3}-[A-HJ-NP-TV-Z]{2}$/);
  if (/types/i.test(name)) return fc.constantFrom('VP', 'VP,VUL', 'PL');
  // The right password logs in; a password change never gets it, so that no caller loses its sessions.
  if (name === 'password') return fc.constantFrom('Motdepasse-tests-1', 'faux-mot-de-passe');
  if (/password/i.test(name)) return fc.constantFrom('faux-mot-de-passe', 'Un-nouveau-mot-de-passe-1');
  return fc.oneof(
    fc.constantFrom('Jean', 'Dupont', 'Lyon', 'Peugeot', 'bug', 'Réf 12').filter(fits),
    fc.string({ unit: 'grapheme', minLength: Math.max(min, 1), maxLength: Math.max(max, 1) }).filter(fits),
  );
}

/** A value the schema describes (or close to it); `name` is the field's. */
function plausible(schema: Schema, name = '', depth = 0): fc.Arbitrary<unknown> {
  if (schema.anyOf) return fc.oneof(...schema.anyOf.map((part) => plausible(part, name, depth)));
  if (schema.enum) return fc.constantFrom(...schema.enum);
  if (schema.const !== undefined) return fc.constant(schema.const);
  const type = ([] as string[]).concat(schema.type ?? [])[0];
  switch (type) {
    case 'string':
      if (schema.format === 'uuid') return fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...knownIds) }, { weight: 1, arbitrary: fc.uuid() });
      if (schema.format === 'date') return fc.oneof(pastDay, isoDay);
      if (schema.format === 'date-time') return isoDay.map((d) => `${d}T12:00:00Z`);
      return plausibleString(name, schema);
    case 'integer':
      return fc.integer({ min: Math.max(schema.minimum ?? 0, -1e9), max: Math.min(schema.maximum ?? 1_000, 1_000) });
    case 'number':
      return fc.integer({ min: Math.max(schema.minimum ?? 0, 0), max: Math.min(schema.maximum ?? 10_000, 10_000) });
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'array':
      return depth > 3 ? fc.constant([]) : fc.array(plausible(schema.items ?? {}, name, depth + 1), { maxLength: 3 });
    case 'object':
      return depth > 3 ? fc.constant({}) : plausibleObject(schema, depth + 1);
    default:
      return hostile;
  }
}

/**
 * The schema's required properties and a few of the others, each plausible. Few: optional
 * filters together often contradict each other (onlyArchived with withArchived, a start after
 * an end), and a request refused for that never reaches what the hostile value would break.
 */
function plausibleObject(schema: Schema, depth = 0): fc.Arbitrary<Record<string, unknown>> {
  const properties = schema.properties ?? {};
  const required = new Set(schema.required ?? []);
  const arbitraries = Object.fromEntries(
    Object.entries(properties).map(([key, property]) => {
      const value = plausible(property, key, depth);
      return [key, required.has(key) ? value : fc.oneof({ weight: 3, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: value })];
    }),
  );
  return fc
    .record(arbitraries)
    .map((values) => Object.fromEntries(Object.entries(values).filter(([, value]) => value !== undefined)));
}

/**
 * What an attacker changes in an otherwise well-formed request: one of its fields (path
 * parameter, query parameter or body property, all equally likely) takes a hostile value, or a key
 * the schema does not know is added.
 */
type Mutation = { index: number; value: unknown; extraKey: boolean };
const mutation: fc.Arbitrary<Mutation> = fc.record({ index: fc.nat(1_000), value: hostile, extraKey: fc.nat(9).map((n) => n === 0) });
const EXTRA_KEYS = ['zzz', 'isAdmin', 'roles', 'organizationUuid', 'constructor', 'uuid'];

// ---------------------------------------------------------------------------------------------
// Requests
// ---------------------------------------------------------------------------------------------

/** A URL cannot carry a lone surrogate: it becomes U+FFFD, as a browser would send it. */
function encode(value: unknown): string {
  const text = typeof value === 'string' ? value : (JSON.stringify(value) ?? '');
  return encodeURIComponent(text.replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, '\ufffd'));
}

function queryString(values: Record<string, unknown>): string {
  const pairs = Object.entries(values).flatMap(([key, value]) =>
    Array.isArray(value) ? value.map((item) => `${key}=${encode(item)}`) : [`${key}=${encode(value)}`],
  );
  return pairs.length > 0 ? `?${pairs.join('&')}` : '';
}

type Request = { caller: Caller; method: string; url: string; payload?: unknown };

/** A well-formed request of the operation, with none, one or two hostile changes; sometimes a body of the wrong type. */
function requests(caller: Caller, method: string, path: string, operation: Operation): fc.Arbitrary<Request> {
  const parameters = operation.parameters ?? [];
  const pathNames = parameters.filter((p) => p.in === 'path').map((p) => p.name);
  const querySchema: Schema = {
    type: 'object',
    properties: Object.fromEntries(parameters.filter((p) => p.in === 'query').map((p) => [p.name, p.schema])),
    required: parameters.filter((p) => p.in === 'query' && p.required).map((p) => p.name),
  };
  const bodySchema = operation.requestBody?.content['application/json']?.schema;
  return fc
    .record({
      params: plausibleObject({ type: 'object', properties: Object.fromEntries(parameters.filter((p) => p.in === 'path').map((p) => [p.name, p.schema])), required: pathNames }),
      query: plausibleObject(querySchema),
      body: bodySchema ? plausible(bodySchema) : fc.constant(undefined),
      // Mostly one change: a second one often makes the request fail before the first can do harm.
      mutations: fc.oneof(
        { weight: 1, arbitrary: fc.constant([]) },
        { weight: 5, arbitrary: fc.array(mutation, { minLength: 1, maxLength: 1 }) },
        { weight: 1, arbitrary: fc.array(mutation, { minLength: 2, maxLength: 2 }) },
      ),
      wrongBody: fc.oneof({ weight: 12, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: wrongType }),
    })
    .map(({ params: generatedParams, query: generatedQuery, body: generatedBody, mutations, wrongBody }) => {
      // Copies: fast-check reuses generated values while shrinking.
      const params = { ...generatedParams };
      const query = { ...generatedQuery };
      const body = generatedBody !== null && typeof generatedBody === 'object' && !Array.isArray(generatedBody) ? { ...generatedBody } : generatedBody;
      const bodyObject = body !== null && typeof body === 'object' && !Array.isArray(body) ? (body as Record<string, unknown>) : undefined;
      const slots: [Record<string, unknown>, string][] = [
        ...pathNames.map((name) => [params, name] as [Record<string, unknown>, string]),
        ...Object.keys(querySchema.properties ?? {}).map((name) => [query, name] as [Record<string, unknown>, string]),
        ...(bodyObject ? Object.keys(bodySchema?.properties ?? {}).map((name) => [bodyObject, name] as [Record<string, unknown>, string]) : []),
      ];
      for (const change of mutations) {
        if (change.extraKey || slots.length === 0) (bodyObject ?? query)[EXTRA_KEYS[change.index % EXTRA_KEYS.length]!] = change.value;
        else {
          const [target, name] = slots[change.index % slots.length]!;
          target[name] = change.value;
        }
      }
      const url = pathNames.reduce((u, name) => u.replace(`{${name}}`, encode(params[name])), path);
      const payload = wrongBody !== undefined && bodySchema ? wrongBody : body;
      return { caller, method, url: `${url}${queryString(query)}`, ...(payload === undefined ? {} : { payload }) };
    });
}

async function send(request: Request): Promise<LightMyRequestResponse> {
  // The web app's CSRF header, so that the requests reach their routes' checks.
  const headers = { [CSRF_HEADER]: CSRF_HEADER_VALUE, ...(request.caller ? { authorization: `Bearer ${tokens[request.caller]}` } : {}) };
  const payload = request.payload === undefined ? {} : { payload: JSON.stringify(request.payload), headers: { ...headers, 'content-type': 'application/json' } };
  return t.app.inject({ method: request.method as 'GET', url: request.url, headers, ...payload });
}

function describeRequest(request: Request): string {
  const body = request.payload === undefined ? '' : ` ${JSON.stringify(request.payload).slice(0, 500)}`;
  return `${request.caller ?? 'anonyme'} ${request.method} ${request.url.slice(0, 500)}${body}`;
}

function expectAnswer(request: Request, response: LightMyRequestResponse) {
  const said = `${describeRequest(request)} → ${response.statusCode} ${response.body.slice(0, 300)} (FUZZ_SEED=${SEED})`;
  expect(response.statusCode, said).toBeLessThan(500);
  if (response.statusCode < 400) return;
  expect(response.headers['content-type'], said).toMatch(/^application\/json/);
  const envelope = z.strictObject(ErrorSchema.shape).safeParse(JSON.parse(response.body));
  expect(envelope.success, said).toBe(true);
  expect(envelope.data, said).toMatchObject({ statusCode: response.statusCode, message: expect.stringMatching(/\S/) });
}

describe('every operation of the OpenAPI document, fuzzed as every role: never a 5xx, always the envelope', () => {
  it('finds the operations in the committed document', () => {
    expect(OPERATIONS.length).toBeGreaterThan(40);
  });

  it.each(OPERATIONS.map((o) => [`${o.method} ${o.path}`, o] as const))(
    '%s',
    async (_, { method, path, operation }) => {
      for (const caller of CALLERS) {
        await fc.assert(
          fc.asyncProperty(requests(caller, method, path, operation), async (request) => {
            expectAnswer(request, await send(request));
          }),
          { seed: SEED, numRuns: RUNS },
        );
      }
      await keepSessions();
    },
    LONG,
  );
});
