import { CSRF_HEADER, CSRF_HEADER_VALUE } from '@flotte/contract';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import {
  attachToEnvironment,
  createDrivers,
  createEnvironment,
  createOrganization,
  createSinisters,
  createUser,
  createVehicules,
  DEFAULT_TEST_PASSWORD,
  linkUser,
} from '../../src/seed/factories.js';
import { multipartFiles } from '../multipart.js';
import { type OpenApiOperation as Operation, type OpenApiSchema as Schema, openApiOperations } from '../openapi.js';
import { captureLogLines, createTestApp, type LogLine, securityEventsOf, type TestContext } from '../test-app.js';

/**
 * Issue 20, point 8: the logs hold no personal data and no secret, and the security events are
 * there.
 *
 * Canary personal data (an e-mail, a phone number, a driving licence number, a surname) is seeded
 * in the database and sent in every body and query string of every operation of the committed
 * OpenAPI document, as every role and as nobody, with the logger at `trace` (every line the
 * product can write: the production level, `info`, is a subset) and every statement logged
 * (SLOW_STATEMENT_MS=0). Logins succeed and fail, accesses are refused, a refresh token is shown
 * twice. Then every captured line is scanned: no canary, no password, no access or refresh token,
 * no cookie and no `authorization` header value may appear. A second app at `info`, the
 * production level, checks the security events: login successes and failures, refused accesses
 * and refresh-token reuse, each a line with its event, user, organization, request id and time.
 */

const onPglite = inject('testDb').kind === 'pglite';
const LONG = 300_000;
const PDF = Buffer.from('%PDF-1.4\n1 0 obj\n<< /Type /Catalog >>\nendobj\ntrailer\n<< /Root 1 0 R >>\n%%EOF\n', 'latin1');

// The canaries: distinctive enough that any occurrence in a log line is a leak.
const CANARY = {
  email: 'canari.q7x4@fuite-temoin.fr',
  memberEmail: 'canari.membre.q7x4@fuite-temoin.fr',
  phone: '06 47 58 69 71',
  licence: 'PERMIS-Q7X4-CANARI',
  surname: 'Canarissime',
  password: 'Canari-Secret-q7x4!',
} as const;

/** What must never be in a log line, case-insensitive (the phone in every spelling the product may normalise it to). */
const FORBIDDEN_TEXT = ['q7x4', 'fuite-temoin', 'canarissime', '47586971', '47 58 69 71', '47.58.69.71', DEFAULT_TEST_PASSWORD.toLowerCase(), 'bearer '];

/** What the file tried and what held, printed as it goes. */
const report = (text: string) => process.stdout.write(`${text}\n`);

type World = Awaited<ReturnType<typeof seedWorld>>;

/** An environment with its superadmin, a client organization with its administrator and member, a root; canaries in the registers. */
async function seedWorld(t: TestContext) {
  return t.seed(async (tx) => {
    const env = await createEnvironment(tx, { title: 'Cabinet Témoin' });
    const org = await createOrganization(tx, { title: 'Transports Témoin', environmentUuid: env.uuid });
    const other = await createOrganization(tx, { title: 'Autre Témoin', environmentUuid: env.uuid });
    const root = await createUser(tx, { email: 'root.logs@exemple.fr', roles: ['ROOT'] });
    const superadmin = await createUser(tx, { email: 'super.logs@exemple.fr', roles: ['SUPERADMIN'] });
    const admin = await createUser(tx, { email: 'admin.logs@exemple.fr' });
    const member = await createUser(tx, { email: CANARY.memberEmail, lastName: CANARY.surname, phone: '+33647586971' });
    await attachToEnvironment(tx, env.uuid, superadmin.uuid);
    await linkUser(tx, org.uuid, admin.uuid, 'ADMIN');
    const memberLink = await linkUser(tx, org.uuid, member.uuid);
    const [driver] = await createDrivers(tx, org.uuid, [{ firstName: 'Séraphin', lastName: CANARY.surname, email: CANARY.email, phone: CANARY.phone }]);
    const [vehicule] = await createVehicules(tx, org.uuid, [{ immatriculation: 'GH-123-JK', brand: CANARY.licence }]);
    const [sinister] = await createSinisters(tx, org.uuid, [{ vehiculeUuid: vehicule!.uuid, driverUuid: driver!.uuid, sinisterIntermediateRef: CANARY.licence }]);
    return { env, org, other, root, superadmin, admin, member, memberLink, driver: driver!, vehicule: vehicule!, sinister: sinister! };
  });
}

const LOGINS = { root: 'root.logs@exemple.fr', superadmin: 'super.logs@exemple.fr', admin: 'admin.logs@exemple.fr', user: CANARY.memberEmail } as const;
type Caller = keyof typeof LOGINS;

/** Logs in and keeps both credentials a client holds: the access token and the refresh cookie. */
async function login(t: TestContext, email: string, remoteAddress = '10.20.0.1') {
  const response = await t.app.inject({ method: 'POST', url: '/api/auth/login', remoteAddress, payload: { email, password: DEFAULT_TEST_PASSWORD } });
  expect(response.statusCode, response.body).toBe(200);
  return {
    access: response.json<{ tokens: { access_token: string } }>().tokens.access_token,
    refresh: response.cookies.find((cookie) => cookie.name.includes('refresh'))!.value,
    response,
  };
}

/** Every secret a client held during the test: tokens and cookies, to look for in the lines. */
const secrets = new Set<string>();
function remember(...values: string[]) {
  for (const value of values) if (value.length >= 16) secrets.add(value);
}

/** The lines that must hold none of the canaries nor any secret: each offence named with its line. */
function leaks(raw: string[]): string[] {
  const found: string[] = [];
  for (const line of raw) {
    const lower = line.toLowerCase();
    for (const text of FORBIDDEN_TEXT) if (lower.includes(text)) found.push(`« ${text} » in ${line.slice(0, 400)}`);
    for (const secret of secrets) if (line.includes(secret)) found.push(`a token or cookie (${secret.slice(0, 8)}…) in ${line.slice(0, 400)}`);
    // A header named in a line only ever with its value masked (pino's redaction).
    const header = /"(authorization|cookie|set-cookie)"\s*:\s*"(?!\[masqué\])/i.exec(line);
    if (header) found.push(`an ${header[1]} header in ${line.slice(0, 400)}`);
  }
  return found;
}

// ---------------------------------------------------------------------------------------------
// Requests built from the OpenAPI document, carrying the canaries
// ---------------------------------------------------------------------------------------------

// Deletions last, so that the other operations find the canary rows still there.
const OPERATIONS = openApiOperations().sort((a, b) => Number(a.method === 'DELETE') - Number(b.method === 'DELETE'));

/** A string for a field, by its name: the canary it could carry, or a plain value its format needs. */
function text(name: string, schema: Schema): string {
  const fit = (value: string) => value.slice(0, schema.maxLength ?? value.length);
  if (schema.format === 'date' || /date$|Date|On$|^(start|end|from|to)$/.test(name)) return '2026-03-15';
  if (schema.format === 'date-time') return '2026-03-15T12:00:00Z';
  if (schema.format === 'email' || /e-?mail/i.test(name)) return CANARY.email;
  if (/phone/i.test(name)) return CANARY.phone;
  if (/password/i.test(name)) return CANARY.password;
  if (/url/i.test(name)) return `https://exemple.fr/${CANARY.licence}`;
  if (/immatriculation|plate/i.test(name)) return 'GH-123-JK';
  if (/name/i.test(name)) return fit(CANARY.surname);
  return fit(`${CANARY.licence} ${CANARY.surname}`);
}

function sample(schema: Schema, name: string, ids: (name: string) => string, full: boolean, depth = 0): unknown {
  if (schema.anyOf) return sample(schema.anyOf.find((part) => part.type !== 'null') ?? schema.anyOf[0]!, name, ids, full, depth);
  if (schema.enum) return schema.enum[0];
  if (schema.const !== undefined) return schema.const;
  const type = ([] as string[]).concat(schema.type ?? [])[0];
  switch (type) {
    case 'string':
      return schema.format === 'uuid' ? ids(name) : text(name, schema);
    case 'integer':
    case 'number':
      return Math.max(schema.minimum ?? 1, Math.min(1, schema.maximum ?? 1));
    case 'boolean':
      return false;
    case 'array':
      return depth > 3 ? [] : [sample(schema.items ?? {}, name, ids, full, depth + 1)];
    case 'object': {
      if (depth > 3) return {};
      const required = new Set(schema.required ?? []);
      return Object.fromEntries(
        Object.entries(schema.properties ?? {})
          .filter(([key]) => full || required.has(key))
          .map(([key, property]) => [key, sample(property, key, ids, full, depth + 1)]),
      );
    }
    default:
      return `${CANARY.licence}`;
  }
}

type Built = { method: string; url: string; payload?: unknown };

/** The operation as a request: path ids of the seeded records, every query parameter and body field carrying canaries (all of them, or the required ones). */
function build(method: string, path: string, operation: Operation, world: World, full: boolean): Built {
  const ids = (name: string) => {
    if (/environment/i.test(name) || (path.startsWith('/api/environment') && name === 'uuid')) return world.env.uuid;
    if (/organization(?!User)/i.test(name) || (path.startsWith('/api/organization/') && name === 'uuid')) return world.org.uuid;
    if (path.startsWith('/api/organization-user')) return world.memberLink.uuid;
    if (path.startsWith('/api/vehicule') || /vehicule/i.test(name)) return world.vehicule.uuid;
    if (path.startsWith('/api/sinister') || /sinister/i.test(name)) return world.sinister.uuid;
    if (path.startsWith('/api/user')) return world.member.uuid;
    return world.driver.uuid;
  };
  const parameters = operation.parameters ?? [];
  let url = path;
  for (const parameter of parameters.filter((p) => p.in === 'path')) {
    const value = parameter.schema.format === 'uuid' || /uuid|id$/i.test(parameter.name) ? ids(parameter.name) : String(sample(parameter.schema, parameter.name, ids, full));
    url = url.replace(`{${parameter.name}}`, encodeURIComponent(value));
  }
  const query = parameters
    .filter((p) => p.in === 'query' && (full || p.required))
    .map((p) => `${p.name}=${encodeURIComponent(String(sample(p.schema, p.name, ids, full)))}`);
  if (query.length > 0) url += `?${query.join('&')}`;
  const bodySchema = operation.requestBody?.content['application/json']?.schema;
  return { method, url, ...(bodySchema ? { payload: sample(bodySchema, '', ids, full) } : {}) };
}

// ---------------------------------------------------------------------------------------------
// The sweep
// ---------------------------------------------------------------------------------------------

describe('no personal data, password, token, cookie or authorization header in any log line', () => {
  let t: TestContext;
  let logs: ReturnType<typeof captureLogLines<LogLine>>;
  let world: World;
  const tokens = {} as Record<Caller, string>;
  const cookies = {} as Record<Caller, string>;

  async function signIn(caller: Caller) {
    const session = await login(t, LOGINS[caller], `10.21.0.${Object.keys(LOGINS).indexOf(caller) + 1}`);
    tokens[caller] = session.access;
    cookies[caller] = session.refresh;
    remember(session.access, session.refresh);
  }

  beforeAll(async () => {
    logs = captureLogLines();
    // Every line the product can write (trace), every statement (0 ms), and the job worker on: the
    // e-mails, imports and alerts the requests queue run and write their lines too.
    t = await createTestApp({ LOG_LEVEL: 'trace', SLOW_STATEMENT_MS: '0', JOBS_WORKER: 'true' }, {}, logs.stream);
    world = await seedWorld(t);
    for (const caller of Object.keys(LOGINS) as Caller[]) await signIn(caller);
  }, LONG);
  afterAll(() => t?.close());

  async function send(caller: Caller | null, request: Built, extraHeaders: Record<string, string> = {}): Promise<LightMyRequestResponse> {
    const headers: Record<string, string> = { [CSRF_HEADER]: CSRF_HEADER_VALUE, ...extraHeaders };
    if (caller) {
      headers.authorization = `Bearer ${tokens[caller]}`;
      headers.cookie = `flotte_refresh=${cookies[caller]}`;
    }
    const response = await t.app.inject({
      method: request.method as 'GET',
      url: request.url,
      headers: request.payload === undefined ? headers : { ...headers, 'content-type': 'application/json' },
      ...(request.payload === undefined ? {} : { payload: JSON.stringify(request.payload) }),
    });
    for (const cookie of response.cookies) remember(cookie.value);
    const body = response.headers['content-type']?.toString().includes('json') ? response.body : '';
    for (const token of body.match(/eyJ[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+/g) ?? []) remember(token);
    return response;
  }

  it(
    'drives every operation of the OpenAPI document as every role and as nobody, with canaries in every field',
    async () => {
      const statuses = new Map<number, number>();
      const callers: (Caller | null)[] = ['root', 'superadmin', 'admin', 'user', null];
      const variants = onPglite ? [true] : [true, false];
      let sent = 0;
      let checked = false;
      for (const { method, path, operation } of OPERATIONS) {
        if (method === 'DELETE' && !checked) {
          // Before the deletions: the canaries are in the database, where the reads and the statements met them.
          const canaryDrivers = await send('admin', { method: 'GET', url: `/api/driver?search=${encodeURIComponent(CANARY.surname)}&withArchived=true` });
          expect(canaryDrivers.json<{ total: number }>().total).toBeGreaterThanOrEqual(1);
          checked = true;
        }
        for (const full of variants) {
          for (const caller of callers) {
            const response = await send(caller, build(method, path, operation, world, full));
            sent++;
            statuses.set(response.statusCode, (statuses.get(response.statusCode) ?? 0) + 1);
            expect(response.statusCode, `${caller ?? 'anonyme'} ${method} ${path} → ${response.body.slice(0, 300)}`).toBeLessThan(500);
          }
          // An operation may have ended a caller's sessions (logout, « partout », a member removed): sign in again.
          for (const caller of Object.keys(LOGINS) as Caller[]) {
            if ((await send(caller, { method: 'GET', url: '/api/auth/me' })).statusCode === 401) await signIn(caller);
          }
        }
      }
      // A file named after the licence, attached to the driver; a search for the canaries.
      const upload = multipartFiles([{ name: `permis ${CANARY.licence} ${CANARY.surname}.pdf`, content: PDF }]);
      const attached = await t.app.inject({
        method: 'POST',
        url: `/api/driver/${world.driver.uuid}/documents`,
        payload: upload.payload,
        headers: { ...upload.headers, authorization: `Bearer ${tokens.admin}` },
      });
      sent++;
      expect(attached.statusCode, attached.body).toBeLessThan(500);
      for (const search of [CANARY.email, CANARY.surname, CANARY.licence, CANARY.phone]) {
        for (const register of ['driver', 'vehicule', 'sinister']) {
          expect((await send('admin', { method: 'GET', url: `/api/${register}?search=${encodeURIComponent(search)}` })).statusCode).toBe(200);
          sent++;
        }
      }
      const found = leaks(logs.raw);
      report(
        `[logs] ${OPERATIONS.length} operations × ${variants.length} variant(s) × ${callers.length} callers: ${sent} requests; ` +
          `answers ${[...statuses].sort(([a], [b]) => a - b).map(([status, n]) => `${status}×${n}`).join(' ')}; ` +
          `${logs.raw.length} lines scanned (levels ${[...new Set(logs.lines.map((line) => line.level))].sort().join(', ')}), ` +
          `${secrets.size} tokens and cookies looked for; leaks: ${found.length}; kinds of line: ${[...new Set(logs.lines.map((line) => line.msg))].join(' | ')}`,
      );
      expect(found).toEqual([]);
      // The sweep did reach the services: successes, refusals and unknown ids alike.
      expect([...statuses.keys()]).toEqual(expect.arrayContaining([200, 400, 401, 403, 404]));
    },
    LONG,
  );

  it('the scan itself finds each kind of leak (a test that cannot fail proves nothing)', () => {
    const planted = [
      JSON.stringify({ level: 30, msg: 'x', email: CANARY.email }),
      JSON.stringify({ level: 30, msg: 'x', phone: '+33647586971' }),
      JSON.stringify({ level: 30, msg: 'x', url: `/api/driver?search=${CANARY.surname}` }),
      JSON.stringify({ level: 30, msg: 'x', body: { note: CANARY.licence } }),
      JSON.stringify({ level: 30, msg: 'x', password: DEFAULT_TEST_PASSWORD }),
      JSON.stringify({ level: 30, msg: 'x', headers: { authorization: `Bearer ${tokens.admin}` } }),
      JSON.stringify({ level: 30, msg: 'x', token: tokens.user }),
      JSON.stringify({ level: 30, msg: 'x', cookie: cookies.root }),
      JSON.stringify({ level: 30, msg: 'x', req: { headers: { Cookie: 'flotte_refresh=abc' } } }),
    ];
    for (const line of planted) expect(leaks([line]), line).not.toEqual([]);
    expect(leaks([JSON.stringify({ level: 30, msg: 'x', headers: { authorization: '[masqué]' } })])).toEqual([]);
  });

  it('writes no canary when a password login fails, a token is forged, a cookie replayed or a header carries a secret', async () => {
    const start = logs.raw.length;
    const wrong = await t.app.inject({ method: 'POST', url: '/api/auth/login', remoteAddress: '10.22.0.1', payload: { email: CANARY.memberEmail, password: CANARY.password } });
    expect(wrong.statusCode).toBe(401);
    const unknown = await t.app.inject({ method: 'POST', url: '/api/auth/login', remoteAddress: '10.22.0.1', payload: { email: CANARY.email, password: DEFAULT_TEST_PASSWORD } });
    expect(unknown.statusCode).toBe(401);
    const forged = await t.app.inject({ method: 'GET', url: '/api/auth/me', headers: { authorization: `Bearer ${tokens.user}x` } });
    expect(forged.statusCode).toBe(401);
    const session = await login(t, CANARY.memberEmail, '10.22.0.2');
    remember(session.access, session.refresh);
    const rotated = await t.app.inject({ method: 'POST', url: '/api/auth/refresh-token', headers: { [CSRF_HEADER]: CSRF_HEADER_VALUE }, cookies: { flotte_refresh: session.refresh } });
    expect(rotated.statusCode, rotated.body).toBe(200);
    for (const cookie of rotated.cookies) remember(cookie.value);
    const replayed = await t.app.inject({ method: 'POST', url: '/api/auth/refresh-token', headers: { [CSRF_HEADER]: CSRF_HEADER_VALUE }, cookies: { flotte_refresh: session.refresh } });
    expect(replayed.statusCode).toBe(401);
    const headers = await t.app.inject({
      method: 'GET',
      url: `/api/driver?search=${encodeURIComponent(CANARY.surname)}`,
      headers: { authorization: `Bearer ${tokens.admin}`, cookie: `flotte_refresh=${cookies.admin}`, 'x-note': CANARY.licence, 'user-agent': `Navigateur ${CANARY.email}` },
    });
    expect(headers.statusCode).toBe(200);
    const lines = logs.raw.slice(start);
    const found = leaks(lines);
    report(`[logs] failed logins, a forged token, a replayed refresh cookie, canaries in headers: ${lines.length} lines, leaks: ${found.length}`);
    expect(lines.length).toBeGreaterThan(6);
    expect(found).toEqual([]);
  });
});

// ---------------------------------------------------------------------------------------------
// Security events, at the production level
// ---------------------------------------------------------------------------------------------

describe('security events, at info (the production level): event, user, organization, request id and time', () => {
  let t: TestContext;
  let logs: ReturnType<typeof captureLogLines<LogLine>>;
  let world: World;

  beforeAll(async () => {
    logs = captureLogLines();
    t = await createTestApp({ LOG_LEVEL: 'info' }, {}, logs.stream);
    world = await seedWorld(t);
  }, LONG);
  afterAll(() => t?.close());

  const events = (response: LightMyRequestResponse) => securityEventsOf(logs.lines, response);

  /** The one event of a request, with the fields every event carries. */
  function theEvent(response: LightMyRequestResponse, event: string) {
    const found = events(response);
    expect(found, JSON.stringify(found)).toHaveLength(1);
    const [line] = found;
    expect(line).toMatchObject({ level: 30, event, reqId: expect.any(String), time: expect.any(Number) });
    expect(line).toHaveProperty('userUuid');
    expect(line).toHaveProperty('organizationUuid');
    expect(Math.abs(Date.now() - line!.time!)).toBeLessThan(60_000);
    return line!;
  }

  it('says a login that succeeds, with the user and the organization they land in', async () => {
    const { response } = await login(t, LOGINS.admin, '10.30.0.1');
    const line = theEvent(response, 'login.succeeded');
    expect(line).toMatchObject({ userUuid: world.admin.uuid, organizationUuid: world.org.uuid, method: 'password' });
    report(`[events] login.succeeded: ${JSON.stringify(line)}`);
  });

  it('says a login that fails: wrong password (the user known), unknown address, too many attempts; never the address', async () => {
    const attempt = (email: string, remoteAddress: string) =>
      t.app.inject({ method: 'POST', url: '/api/auth/login', remoteAddress, payload: { email, password: CANARY.password } });
    const wrong = await attempt(LOGINS.user, '10.31.0.1');
    expect(wrong.statusCode).toBe(401);
    expect(theEvent(wrong, 'login.failed')).toMatchObject({ userUuid: world.member.uuid, organizationUuid: null, reason: 'wrong-password' });
    const unknown = await attempt('personne.q7x4@fuite-temoin.fr', '10.31.0.2');
    expect(unknown.statusCode).toBe(401);
    expect(theEvent(unknown, 'login.failed')).toMatchObject({ userUuid: null, organizationUuid: null, reason: 'unknown-account' });
    // Failures on one account from one address until it is held back (429).
    let limited: LightMyRequestResponse | undefined;
    for (let i = 0; i < 10 && !limited; i++) {
      const response = await attempt(LOGINS.user, '10.31.0.3');
      if (response.statusCode === 429) limited = response;
    }
    expect(limited, 'an address failing again and again is held back').toBeDefined();
    expect(theEvent(limited!, 'login.failed')).toMatchObject({ reason: 'too-many-attempts' });
    const said = logs.raw.filter((line) => line.includes('"security event"'));
    expect(leaks(said)).toEqual([]);
    report(`[events] login.failed: wrong-password, unknown-account, too-many-attempts (${said.length} event lines, none with an address)`);
  });

  it('says a refused access: no token (401), a forged one (401), a member asking an administrator’s operation (403)', async () => {
    const member = await login(t, LOGINS.user, '10.32.0.1');
    const anonymous = await t.app.inject({ method: 'GET', url: '/api/driver' });
    expect(anonymous.statusCode).toBe(401);
    expect(theEvent(anonymous, 'access.refused')).toMatchObject({ userUuid: null, organizationUuid: null, statusCode: 401, route: '/api/driver' });
    const forged = await t.app.inject({ method: 'GET', url: '/api/driver', headers: { authorization: `Bearer ${member.access.slice(0, -2)}xx` } });
    expect(forged.statusCode).toBe(401);
    expect(theEvent(forged, 'access.refused')).toMatchObject({ statusCode: 401, userUuid: null });
    const forbidden = await t.as(member.access, { method: 'DELETE', url: `/api/driver/${world.driver.uuid}/hard` });
    expect(forbidden.statusCode).toBe(403);
    const line = theEvent(forbidden, 'access.refused');
    expect(line).toMatchObject({ userUuid: world.member.uuid, organizationUuid: world.org.uuid, statusCode: 403, route: '/api/driver/:uuid/hard' });
    report(`[events] access.refused: ${JSON.stringify(line)}`);
  });

  it('says a refresh token shown again after its use, with its user and organization, and ends the session', async () => {
    const session = await login(t, LOGINS.admin, '10.33.0.1');
    const refresh = (value: string) =>
      t.app.inject({ method: 'POST', url: '/api/auth/refresh-token', headers: { [CSRF_HEADER]: CSRF_HEADER_VALUE }, cookies: { flotte_refresh: value } });
    const first = await refresh(session.refresh);
    expect(first.statusCode).toBe(200);
    expect(events(first)).toEqual([]);
    const reused = await refresh(session.refresh);
    expect(reused.statusCode).toBe(401);
    const line = theEvent(reused, 'refresh.reused');
    expect(line).toMatchObject({ userUuid: world.admin.uuid, organizationUuid: world.org.uuid, reason: 'reused' });
    // The family is revoked: the token the first refresh gave is refused too, said as such.
    const next = first.cookies.find((cookie) => cookie.name.includes('refresh'))!.value;
    const after = await refresh(next);
    expect(after.statusCode).toBe(401);
    expect(theEvent(after, 'refresh.refused')).toMatchObject({ userUuid: world.admin.uuid, reason: 'revoked' });
    expect(leaks(logs.raw.filter((entry) => entry.includes('"security event"')))).toEqual([]);
    report(`[events] refresh.reused: ${JSON.stringify(line)}`);
  });
});
