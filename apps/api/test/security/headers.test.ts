import { connect } from 'node:net';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import type { DatabaseHandle } from '../../src/db/client.js';
import { withSystem } from '../../src/db/scope.js';
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
  subscribeToPlan,
} from '../../src/seed/factories.js';
import { multipartFile, multipartFiles } from '../multipart.js';
import { type OpenApiOperation as Operation, type OpenApiSchema as Schema, openApiOperations } from '../openapi.js';
import { createTestDatabase } from '../test-app.js';

/**
 * Issue 20, point 6: the security headers on every answer, errors included. Every operation of
 * the committed OpenAPI document is called as nobody and as each kind of user (root, a broker's
 * superadmin, an organization's administrator), its GETs on real records where a list gives one,
 * its writes with an empty body on an unknown id; then the web app's pages and build files,
 * /api/docs, health, metrics, 404s, and errors raised before any route (a bad JSON body, a
 * malformed URL, a wrong content type, a body too large). On each answer:
 * - a Content-Security-Policy with `frame-ancestors 'none'`, `X-Content-Type-Options: nosniff`,
 *   a `Referrer-Policy`, HSTS (the app's PUBLIC_URL is https), no `X-Powered-By`;
 * - personal data is never kept: every /api answer says `no-store` (decision 014), except the
 *   public images an `<img>` loads without a token (avatars and logos under a random version,
 *   decisions 036 and 042), which say `private`;
 * - the web app's build files (scripts, styles) carry only nosniff, CORP and HSTS (issue 10: the
 *   document policies mean nothing on a script, and cost bytes on every file).
 * An app whose PUBLIC_URL is http sends everything but HSTS. The file prints what it tried.
 */

const SECRET = 'headers-suite-secret-0123456789-0123456789';
const PUBLIC_URL = 'https://flotte.exemple.fr';
const UNKNOWN_UUID = '00000000-0000-4000-8000-000000000000';
const HSTS = 'max-age=31536000; includeSubDomains';
const PUBLIC_IMAGE_CACHE = 'private, max-age=31536000, immutable';
const LONG = 300_000;

const OPERATIONS = openApiOperations()
  .map(({ method, path, operation }) => ({ method, route: path, operation }))
  // Lists before the records they lead to, reads before writes.
  .sort((a, b) => Number(a.method !== 'GET') - Number(b.method !== 'GET') || a.route.split('{').length - b.route.split('{').length);

const CALLERS = ['anonyme', 'root', 'superadmin', 'admin'] as const;
type Caller = (typeof CALLERS)[number];
const EMAILS: Record<Exclude<Caller, 'anonyme'>, string> = { root: 'root@entetes.fr', superadmin: 'super@entetes.fr', admin: 'admin@entetes.fr' };

/** The pages of the web app (SPEC), served by the API's process. */
const PAGES = [
  '/',
  '/account',
  '/alerts',
  '/cgu',
  '/dashboard',
  '/drivers',
  '/ged',
  '/media',
  '/onboarding',
  '/parameters',
  '/recover/password?token=abc',
  '/refresh?route=%2Fdashboard',
  '/signup',
  '/sinisters',
  '/vehicules',
  '/root/spaces',
  '/superadmin/settings',
  '/survey/abc',
  '/page-inconnue',
];

let dist: string;
let app: FastifyInstance;
let database: DatabaseHandle;
let dataDir: string;
let plainApp: FastifyInstance;
let plainDatabase: DatabaseHandle;
let plainDataDir: string;
const tokens: Partial<Record<Caller, string>> = {};
/** One answer per line, printed at the end: what was tried, what it answered. */
const tried: string[] = [];
/** Every header missing or wrong, with the request that showed it. */
const violations: string[] = [];
let answers = 0;

async function open(env: Record<string, string>) {
  const db = await createTestDatabase();
  const dir = mkdtempSync(path.join(tmpdir(), 'flotte-headers-'));
  const config = loadConfig({ APP_SECRET: SECRET, LOG_LEVEL: 'silent', JOBS_WORKER: 'false', DATA_DIR: dir, WEB_DIST: dist, ...env });
  const built = await buildApp(config, db, { logger: false });
  await built.ready();
  return { app: built, db, dir };
}

async function seed(db: DatabaseHandle) {
  await withSystem(db.db, async (tx) => {
    const environment = await createEnvironment(tx, { title: 'Cabinet Entêtes' });
    const organization = await createOrganization(tx, { title: 'Transports Entêtes', environmentUuid: environment.uuid });
    await subscribeToPlan(tx, organization.uuid);
    await createUser(tx, { email: EMAILS.root, roles: ['ROOT'] });
    const superadmin = await createUser(tx, { email: EMAILS.superadmin, roles: ['SUPERADMIN'] });
    await attachToEnvironment(tx, environment.uuid, superadmin.uuid);
    const admin = await createUser(tx, { email: EMAILS.admin });
    await linkUser(tx, organization.uuid, admin.uuid, 'ADMIN');
    const [driver] = await createDrivers(tx, organization.uuid, [{ firstName: 'Anne', lastName: 'Entête', email: 'anne@entetes.fr' }]);
    const [vehicule] = await createVehicules(tx, organization.uuid, [{ immatriculation: 'EN-123-TE' }]);
    await createSinisters(tx, organization.uuid, [{ vehiculeUuid: vehicule!.uuid, driverUuid: driver!.uuid }]);
  });
}

async function login(caller: Exclude<Caller, 'anonyme'>, on = app) {
  const response = await on.inject({ method: 'POST', url: '/api/auth/login', remoteAddress: '10.30.0.1', payload: { email: EMAILS[caller], password: DEFAULT_TEST_PASSWORD } });
  expect(response.statusCode, response.body).toBe(200);
  return response.json<{ tokens: { access_token: string } }>().tokens.access_token;
}

function send(caller: Caller, options: InjectOptions, on = app) {
  const token = caller === 'anonyme' ? undefined : tokens[caller];
  return on.inject({ ...options, headers: { ...options.headers, ...(token ? { authorization: `Bearer ${token}` } : {}) } });
}

/** The file's own records, so that reads answer 200 and not only 404. */
let documentUuid: string;
let avatarUrl: string;

beforeAll(async () => {
  dist = mkdtempSync(path.join(tmpdir(), 'flotte-headers-web-'));
  mkdirSync(path.join(dist, 'assets'));
  writeFileSync(path.join(dist, 'index.html'), '<!doctype html><title>FlotteAssur</title><script type="module" src="/assets/index-abc123.js"></script>');
  writeFileSync(path.join(dist, 'assets', 'index-abc123.js'), 'console.log(1)');
  writeFileSync(path.join(dist, 'assets', 'index-abc123.css'), 'body{margin:0}');
  ({ app, db: database, dir: dataDir } = await open({ PUBLIC_URL }));
  ({ app: plainApp, db: plainDatabase, dir: plainDataDir } = await open({}));
  await seed(database);
  for (const caller of ['root', 'superadmin', 'admin'] as const) tokens[caller] = await login(caller);

  const photo = await sharp({ create: { width: 64, height: 48, channels: 3, background: '#3366cc' } }).jpeg().toBuffer();
  const uploaded = await send('admin', { method: 'POST', url: '/api/document/upload', ...multipartFiles([{ name: 'photo.jpg', content: photo }]) });
  expect(uploaded.statusCode, uploaded.body).toBe(201);
  documentUuid = uploaded.json<{ data: { uuid: string }[] }>().data[0]!.uuid;
  const avatar = await send('admin', { method: 'POST', url: '/api/user/avatar', ...multipartFile('moi.jpg', photo) });
  expect(avatar.statusCode, avatar.body).toBeLessThan(300);
  avatarUrl = (await send('admin', { method: 'GET', url: '/api/auth/me' })).json<{ avatar: { url: string } }>().avatar.url;
  expect(avatarUrl).toMatch(/^\/api\/user\//);
}, LONG);

afterAll(async () => {
  // eslint-disable-next-line no-console -- what the suite tried and what held is its report (issue 20)
  console.log(`[headers] ${answers} answers checked, ${violations.length} violations:\n${tried.join('\n')}`);
  for (const [a, db, dir] of [
    [app, database, dataDir],
    [plainApp, plainDatabase, plainDataDir],
  ] as const) {
    await a?.close();
    await db?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  }
  if (dist) rmSync(dist, { recursive: true, force: true });
});

// ---------------------------------------------------------------------------------------------
// What every answer must carry
// ---------------------------------------------------------------------------------------------

type Kind = 'api' | 'public-image' | 'page' | 'asset';

const isApi = (url: string) => url === '/api' || url.startsWith('/api/') || url.startsWith('/api?');

/** The headers an answer of this kind must carry; the wrong ones, in words. */
type Answer = { statusCode: number; headers: Record<string, string | string[] | number | undefined> };

function wrongHeaders(response: Answer, kind: Kind, https: boolean): string[] {
  const h = response.headers;
  const wrong: string[] = [];
  if (h['x-powered-by'] !== undefined) wrong.push(`X-Powered-By: ${String(h['x-powered-by'])}`);
  if (h['x-content-type-options'] !== 'nosniff') wrong.push(`X-Content-Type-Options: ${String(h['x-content-type-options'])}`);
  if (https ? h['strict-transport-security'] !== HSTS : h['strict-transport-security'] !== undefined) {
    wrong.push(`Strict-Transport-Security: ${String(h['strict-transport-security'])}`);
  }
  if (kind === 'asset') {
    if (h['cross-origin-resource-policy'] !== 'same-origin') wrong.push(`Cross-Origin-Resource-Policy: ${String(h['cross-origin-resource-policy'])}`);
    return wrong;
  }
  const csp = String(h['content-security-policy'] ?? '');
  if (!csp.split(';').some((directive) => directive.trim() === "frame-ancestors 'none'")) wrong.push(`Content-Security-Policy without frame-ancestors 'none': ${csp}`);
  if (!h['referrer-policy']) wrong.push('no Referrer-Policy');
  const cacheControl = String(h['cache-control'] ?? '');
  const directives = cacheControl.split(',').map((d) => d.trim());
  if (kind === 'api' && !directives.includes('no-store')) wrong.push(`Cache-Control: ${cacheControl || '(none)'}`);
  if (kind === 'public-image' && cacheControl !== PUBLIC_IMAGE_CACHE) wrong.push(`Cache-Control: ${cacheControl || '(none)'}`);
  if (kind === 'page' && directives.includes('public')) wrong.push(`Cache-Control: ${cacheControl}`);
  return wrong;
}

/** The violations found since `from` (each test checks its own). */
const since = (from: number) => violations.slice(from);

/** Checks an answer's headers and records what is wrong. */
async function check(label: string, response: Answer, kind: Kind, https = true) {
  answers++;
  const wrong = wrongHeaders(response, kind, https);
  for (const w of wrong) violations.push(`${label} → ${response.statusCode}: ${w}`);
  return { status: response.statusCode, ok: wrong.length === 0 };
}

// ---------------------------------------------------------------------------------------------
// Requests built from the OpenAPI document
// ---------------------------------------------------------------------------------------------

/** A value the parameter accepts, or at least one a client could send. */
function sample(schema: Schema): string {
  if (schema.anyOf) return sample(schema.anyOf[0]!);
  if (schema.enum) return String(schema.enum[0]);
  const type = ([] as string[]).concat(schema.type ?? [])[0];
  if (schema.format === 'uuid') return UNKNOWN_UUID;
  if (schema.format === 'date') return '2026-01-01';
  if (type === 'integer' || type === 'number') return '1';
  if (type === 'boolean') return 'true';
  return 'abcdefgh12';
}

/** The first record of each list read so far, by the list's path: `/api/driver` → a driver's uuid. */
const firstRecord = new Map<string, string>();

function rememberFirst(route: string, response: LightMyRequestResponse) {
  if (response.statusCode !== 200 || !String(response.headers['content-type']).startsWith('application/json')) return;
  const body = response.json<unknown>();
  const items = Array.isArray(body) ? body : body !== null && typeof body === 'object' ? (body as { data?: unknown }).data : undefined;
  const first = Array.isArray(items) ? (items[0] as { uuid?: unknown } | undefined) : undefined;
  if (typeof first?.uuid === 'string' && !firstRecord.has(route)) firstRecord.set(route, first.uuid);
}

function urlOf(method: string, route: string, operation: Operation): string {
  const parameters = operation.parameters ?? [];
  let url = route;
  for (const parameter of parameters.filter((p) => p.in === 'path')) {
    const prefix = route.slice(0, route.indexOf(`{${parameter.name}}`) - 1);
    // Reads go to a real record when a list led to one; writes never touch one.
    const known = method === 'GET' && parameter.schema.format === 'uuid' ? firstRecord.get(prefix) : undefined;
    url = url.replace(`{${parameter.name}}`, encodeURIComponent(known ?? sample(parameter.schema)));
  }
  const query = parameters.filter((p) => p.in === 'query' && p.required).map((p) => `${p.name}=${encodeURIComponent(sample(p.schema))}`);
  return query.length > 0 ? `${url}?${query.join('&')}` : url;
}

/** A caller whose session a write ended (a logout, « Se déconnecter partout ») logs in again. */
async function keepSession(caller: Caller) {
  if (caller === 'anonyme') return;
  if ((await send(caller, { method: 'GET', url: '/api/auth/me' })).statusCode === 401) tokens[caller] = await login(caller);
}

describe('the security headers on every answer', () => {
  it('finds the operations in the committed document', () => {
    expect(OPERATIONS.length).toBeGreaterThan(100);
  });

  // First: the operations below delete the avatar (DELETE /api/user/avatar needs no id).
  it('a stored document’s file, preview and thumbnail, and the public avatar an <img> loads', async () => {
    const from = violations.length;
    const lines: string[] = [];
    for (const part of ['download', 'preview', 'thumbnail']) {
      const url = `/api/document/${documentUuid}/${part}`;
      const response = await send('admin', { method: 'GET', url });
      expect(response.statusCode, response.body).toBe(200);
      lines.push(`admin ${response.statusCode} ${(await check(`admin GET ${url}`, response, 'api')).ok ? '' : '✗'} (${String(response.headers['cache-control'])})`);
    }
    const avatar = await send('anonyme', { method: 'GET', url: avatarUrl });
    expect(avatar.statusCode).toBe(200);
    lines.push(`avatar anonyme ${avatar.statusCode} (${String(avatar.headers['cache-control'])})`);
    await check(`anonyme GET ${avatarUrl}`, avatar, 'public-image');
    tried.push(`  ${'a stored file (download, preview, thumbnail), a public avatar'.padEnd(62)} ${lines.join(', ')}`);
    expect(since(from)).toEqual([]);
  });

  it(
    'every operation of the OpenAPI document, as nobody and as root, a superadmin and an administrator',
    async () => {
      const from = violations.length;
      for (const { method, route, operation } of OPERATIONS) {
        const statuses: string[] = [];
        for (const caller of CALLERS) {
          const url = urlOf(method, route, operation);
          const body = method === 'GET' || method === 'DELETE' || !operation.requestBody ? {} : { payload: {} };
          const response = await send(caller, { method: method as 'GET', url, ...body });
          if (method === 'GET') rememberFirst(route, response);
          const { status, ok } = await check(`${caller} ${method} ${url}`, response, 'api');
          statuses.push(`${caller} ${status}${ok ? '' : ' ✗'}`);
          if (method !== 'GET') await keepSession(caller);
        }
        tried.push(`  ${`${method} ${route}`.padEnd(62)} ${statuses.join(', ')}`);
      }
      expect(since(from)).toEqual([]);
    },
    LONG,
  );

  it('successful writes and the session’s own answers: create, change, delete; login, refresh, logout', async () => {
    const from = violations.length;
    const lines: string[] = [];
    const expectDone = async (label: string, response: LightMyRequestResponse) => {
      expect(response.statusCode, `${label}: ${response.body}`).toBeLessThan(300);
      lines.push(`${label} ${(await check(label, response, 'api')).status}`);
      return response;
    };
    const created = await expectDone('POST /api/driver', await send('admin', { method: 'POST', url: '/api/driver', payload: { firstName: 'Paul', lastName: 'Écrit', phone: '0612345678' } }));
    const uuid = created.json<{ uuid: string }>().uuid;
    await expectDone('PATCH /api/driver/{uuid}', await send('admin', { method: 'PATCH', url: `/api/driver/${uuid}`, payload: { lastName: 'Réécrit' } }));
    await expectDone('DELETE /api/driver/{uuid}', await send('admin', { method: 'DELETE', url: `/api/driver/${uuid}` }));
    const signedIn = await expectDone(
      'POST /api/auth/login',
      await app.inject({ method: 'POST', url: '/api/auth/login', remoteAddress: '10.30.0.2', payload: { email: EMAILS.admin, password: DEFAULT_TEST_PASSWORD } }),
    );
    const cookie = signedIn.cookies.find((c) => c.name === 'flotte_refresh')!.value;
    const sameSite = { 'x-requested-with': 'flotteassur', 'sec-fetch-site': 'same-origin' };
    const refreshed = await expectDone(
      'POST /api/auth/refresh-token',
      await app.inject({ method: 'POST', url: '/api/auth/refresh-token', headers: sameSite, cookies: { flotte_refresh: cookie } }),
    );
    const next = refreshed.cookies.find((c) => c.name === 'flotte_refresh')!.value;
    await expectDone('POST /api/auth/logout', await app.inject({ method: 'POST', url: '/api/auth/logout', headers: sameSite, cookies: { flotte_refresh: next } }));
    tried.push(`  ${'successful writes, login, refresh, logout'.padEnd(62)} ${lines.join(', ')}`);
    expect(since(from)).toEqual([]);
  });

  it('the web app’s pages and build files, /api/docs, health, readiness and metrics', async () => {
    const from = violations.length;
    const lines: string[] = [];
    for (const url of PAGES) {
      const { status } = await check(`GET ${url}`, await app.inject({ method: 'GET', url }), 'page');
      lines.push(`${url} ${status}`);
    }
    for (const url of ['/assets/index-abc123.js', '/assets/index-abc123.css', '/assets/index-ancien.js']) {
      const { status } = await check(`GET ${url}`, await app.inject({ method: 'GET', url }), 'asset');
      lines.push(`${url} ${status}`);
    }
    for (const url of ['/api/docs', '/api/docs/', '/api/docs/json', '/api/docs/static/index.html', '/api/health', '/api/ready', '/metrics']) {
      const { status } = await check(`GET ${url}`, await app.inject({ method: 'GET', url }), isApi(url) ? 'api' : 'page');
      lines.push(`${url} ${status}`);
    }
    tried.push(`  ${'pages, build files, docs, health'.padEnd(62)} ${lines.join(', ')}`);
    expect(since(from)).toEqual([]);
  });

  it('404s and errors met before any route: a bad JSON body, a malformed URL, a wrong content type, a body too large, a method not allowed', async () => {
    const cases: [string, Caller, InjectOptions][] = [
      ['unknown API route', 'anonyme', { method: 'GET', url: '/api/nulle-part' }],
      ['unknown API route, signed in', 'admin', { method: 'GET', url: '/api/nulle-part' }],
      ['unknown method', 'admin', { method: 'PUT', url: '/api/auth/me' }],
      ['bad JSON body', 'anonyme', { method: 'POST', url: '/api/auth/login', headers: { 'content-type': 'application/json' }, payload: '{"email":' }],
      ['bad JSON body, signed in', 'admin', { method: 'POST', url: '/api/driver', headers: { 'content-type': 'application/json' }, payload: '{"lastName":' }],
      ['malformed URL', 'anonyme', { method: 'GET', url: '/api/driver/%E0%A4%A' }],
      ['malformed URL, signed in', 'admin', { method: 'GET', url: '/api/driver/%E0%A4%A' }],
      ['malformed URL of a page', 'anonyme', { method: 'GET', url: '/vehicules/%E0%A4%A' }],
      ['wrong content type', 'admin', { method: 'POST', url: '/api/driver', headers: { 'content-type': 'text/xml' }, payload: '<driver/>' }],
      ['body over 1 MiB', 'admin', { method: 'POST', url: '/api/driver', headers: { 'content-type': 'application/json' }, payload: `{"lastName":"${'x'.repeat(1_100_000)}"}` }],
      ['token refused', 'anonyme', { method: 'GET', url: '/api/driver', headers: { authorization: 'Bearer pas.un.jeton' } }],
      ['cross-site refresh', 'anonyme', { method: 'POST', url: '/api/auth/refresh-token', headers: { 'sec-fetch-site': 'cross-site' } }],
      ['validation error', 'admin', { method: 'GET', url: '/api/driver?page=zero' }],
      ['304 of a list', 'admin', { method: 'GET', url: '/api/driver' }],
    ];
    const from = violations.length;
    const lines: string[] = [];
    for (const [label, caller, options] of cases) {
      let response = await send(caller, options);
      if (label === '304 of a list') {
        response = await send(caller, { ...options, headers: { 'if-none-match': String(response.headers.etag) } });
        expect(response.statusCode).toBe(304);
      }
      const { status } = await check(`${caller} ${label}`, response, isApi(options.url as string) ? 'api' : 'page');
      lines.push(`${label} ${status}`);
    }
    // The login limits' 429.
    for (let i = 0; i < 6; i++) {
      await app.inject({ method: 'POST', url: '/api/auth/login', remoteAddress: '10.31.0.1', payload: { email: EMAILS.admin, password: 'faux-mot-de-passe' } });
    }
    const limited = await app.inject({ method: 'POST', url: '/api/auth/login', remoteAddress: '10.31.0.1', payload: { email: EMAILS.admin, password: 'faux-mot-de-passe' } });
    expect(limited.statusCode).toBe(429);
    lines.push(`login limit ${(await check('anonyme login limit', limited, 'api')).status}`);
    tried.push(`  ${'404s and pre-routing errors'.padEnd(62)} ${lines.join(', ')}`);
    expect(since(from)).toEqual([]);
  });

  it('requests Node’s parser refuses, answered on the socket before Fastify sees them (a bad header, headers too large)', async () => {
    const from = violations.length;
    await app.listen({ host: '127.0.0.1', port: 0 });
    const { port } = app.server.address() as { port: number };
    /** The raw answer to `request`, its status line and headers parsed. */
    const raw = (request: string) =>
      new Promise<Answer>((resolve, reject) => {
        const socket = connect(port, '127.0.0.1', () => socket.end(request));
        let text = '';
        socket.on('data', (chunk) => (text += chunk.toString('latin1')));
        socket.on('error', reject);
        socket.on('close', () => {
          const [head = ''] = text.split('\r\n\r\n');
          const [statusLine = '', ...lines] = head.split('\r\n');
          const headers = Object.fromEntries(lines.map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]));
          resolve({ statusCode: Number(statusLine.split(' ')[1]), headers });
        });
      });
    const lines: string[] = [];
    const cases: [string, string][] = [
      ['a header line without a colon', 'GET /api/health HTTP/1.1\r\nHost: x\r\nnot a header\r\n\r\n'],
      ['headers over 16 KiB', `GET /api/health HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`],
    ];
    for (const [label, request] of cases) {
      const answer = await raw(request);
      expect(answer.statusCode, label).toBeGreaterThanOrEqual(400);
      lines.push(`${label} ${(await check(label, answer, 'api')).status}`);
    }
    tried.push(`  ${'refused by Node’s parser (clientError)'.padEnd(62)} ${lines.join(', ')}`);
    expect(since(from)).toEqual([]);
  });

  it('over http (PUBLIC_URL not https): the same headers, without HSTS', async () => {
    await seed(plainDatabase);
    const access = await login('admin', plainApp);
    const from = violations.length;
    const lines: string[] = [];
    const requests: [string, InjectOptions, Kind][] = [
      ['anonyme /api/health', { method: 'GET', url: '/api/health' }, 'api'],
      ['anonyme /api/driver', { method: 'GET', url: '/api/driver' }, 'api'],
      ['admin /api/driver', { method: 'GET', url: '/api/driver', headers: { authorization: `Bearer ${access}` } }, 'api'],
      ['admin /api/auth/me', { method: 'GET', url: '/api/auth/me', headers: { authorization: `Bearer ${access}` } }, 'api'],
      ['anonyme bad JSON', { method: 'POST', url: '/api/auth/login', headers: { 'content-type': 'application/json' }, payload: '{' }, 'api'],
      ['anonyme malformed URL', { method: 'GET', url: '/api/driver/%E0%A4%A' }, 'api'],
      ['anonyme /api/nulle-part', { method: 'GET', url: '/api/nulle-part' }, 'api'],
      ['page /dashboard', { method: 'GET', url: '/dashboard' }, 'page'],
      ['asset', { method: 'GET', url: '/assets/index-abc123.js' }, 'asset'],
    ];
    for (const [label, options, kind] of requests) {
      const { status } = await check(`http ${label}`, await plainApp.inject(options), kind, false);
      lines.push(`${label} ${status}`);
    }
    tried.push(`  ${'over http: no HSTS, the rest alike'.padEnd(62)} ${lines.join(', ')}`);
    expect(since(from)).toEqual([]);
  });
});
