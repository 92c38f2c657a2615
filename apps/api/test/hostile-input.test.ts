import { readFileSync } from 'node:fs';
import { CGU_VERSION, CSRF_HEADER, CSRF_HEADER_VALUE } from '@flotte/contract';
import { sql } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { passwordResetTokens } from '../src/db/schema/users.js';
import { hashRefreshToken } from '../src/lib/tokens.js';
import { createDrivers, createSinisters, createUser, createVehicules } from '../src/seed/factories.js';
import { openEnvironments, type EnvironmentFixtures } from './fixtures/environments.js';
import { OPENAPI_FILE } from './openapi.js';
import type { TestContext } from './test-app.js';

/**
 * Issue 9, "input never causes a 5xx": the inputs that answered 500 — a NUL in a text field or
 * a search, a date of year 0000 in a body or a filter, an e-mail of a few thousand characters —
 * and their cousins (a lone surrogate, a text over its maximum, a date outside 1900–2100) are a
 * French 400 naming the field, and nothing is written. The fields come from the committed OpenAPI
 * document: a new text or date field of a body or a query is covered without editing this file;
 * a new route with a body needs its valid body below.
 */

type Schema = { type?: string | string[]; maxLength?: number; format?: string; enum?: unknown[]; anyOf?: Schema[]; properties?: Record<string, Schema> };
type Operation = { parameters?: { in: string; name: string; schema: Schema }[]; requestBody?: { content: Record<string, { schema: Schema }> } };
const document = JSON.parse(readFileSync(OPENAPI_FILE, 'utf8')) as { paths: Record<string, Record<string, Operation>> };

const RECOVERY_TOKEN = 'jeton-de-recuperation-hostile';

let t: TestContext;
let f: EnvironmentFixtures;
let tokens: Record<string, string>;
const ids: Record<string, string> = {};

beforeAll(async () => {
  ({ t, f, tokens } = await openEnvironments(['root', 'admin-a', 'super-a', 'user-a']));
  await t.seed(async (tx) => {
    const [driver] = await createDrivers(tx, f.orgA1.uuid, [{ firstName: 'Anne', lastName: 'Témoin', email: 'anne@exemple.fr' }]);
    const [vehicule] = await createVehicules(tx, f.orgA1.uuid, [{ immatriculation: 'GH-123-JK', circulationDate: '2020-01-01' }]);
    const [sinister] = await createSinisters(tx, f.orgA1.uuid, [{ vehiculeUuid: vehicule!.uuid, driverUuid: driver!.uuid, city: 'Lyon' }]);
    ids.driver = driver!.uuid;
    ids.vehicule = vehicule!.uuid;
    ids.sinister = sinister!.uuid;
    // A live recovery link of a user of its own, for the recovery routes' valid bodies.
    const recovering = await createUser(tx, { email: 'recuperation@exemple.fr' });
    await tx.insert(passwordResetTokens).values({ userUuid: recovering.uuid, tokenHash: hashRefreshToken(RECOVERY_TOKEN), expiresAt: new Date(Date.now() + 3_600_000) });
  });
  const me = await t.as(tokens['admin-a']!, { method: 'GET', url: '/api/auth/me' });
  ids.user = me.json<{ uuid: string }>().uuid;
  ids.environment = f.envA.uuid;
  // An import previewed, for its validate and commit routes.
  const boundary = '----hostile';
  const file = Buffer.from('Nom;Prénom;Téléphone\r\nRoux;Léa;06 12 34 56 70\r\n', 'latin1');
  const payload = Buffer.concat([Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="c.csv"\r\n\r\n`), file, Buffer.from(`\r\n--${boundary}--\r\n`)]);
  const preview = await t.as(tokens['admin-a']!, { method: 'POST', url: '/api/import/driver/preview', payload, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } });
  ids.import = preview.json<{ importId: string }>().importId;
  // A folder, for the document routes that name one.
  const folder = await t.as(tokens['admin-a']!, { method: 'POST', url: '/api/document/folder', payload: { folderName: 'Témoin' } });
  ids.document = folder.json<{ uuid: string }>().uuid;
}, 120_000);
afterAll(() => t?.close());

/** Every row the API can write, in one digest: equal before and after means nothing was written. */
const TABLES = ['users', 'environments', 'environment_tiers', 'environment_users', 'organizations', 'organization_users', 'drivers', 'vehicules', 'sinisters', 'reports', 'register_counts', 'refresh_tokens', 'indicators', 'dashboard_configs', 'insurance_contracts', 'insurance_contract_guarantees', 'insurance_intermediaries', 'imports', 'import_changes', 'stored_files', 'documents', 'document_expiry_notices', 'password_reset_tokens'];
const FINGERPRINT = sql.raw(
  `select ${TABLES.map((table) => `(select count(*)::text || ':' || coalesce(md5(string_agg(t::text, '|' order by t::text)), '') from ${table} t)`).join(" || ' ' || ")} as digest`,
);

async function fingerprint(): Promise<string> {
  const result = await t.seed((tx) => tx.execute(FINGERPRINT));
  return (result as unknown as { rows: { digest: string }[] }).rows[0]!.digest;
}

/** A valid body for each route that takes one, and who may send it. The test refuses a route missing here. */
const VALID: Record<string, { who: string; body: () => Record<string, unknown> }> = {
  'POST /api/auth/login': { who: '', body: () => ({ email: 'admin-a@exemple.fr', password: 'Motdepasse-tests-1' }) },
  'PATCH /api/user/{uuid}': { who: 'admin-a', body: () => ({ firstName: 'Alice', lastName: 'Martin', phone: '06 12 34 56 78', description: 'Gestionnaire' }) },
  'POST /api/organization-user': { who: 'super-a', body: () => ({ user: ids.user, organization: f.orgA2.uuid }) },
  'POST /api/environment': { who: 'root', body: () => ({ title: 'Espace', refererEmail: 'a@exemple.fr', bookingUrl: 'https://rdv.exemple.fr', freeOrganizations: 1, stripeProductId: 'prod_1' }) },
  'PATCH /api/environment/{uuid}': { who: 'root', body: () => ({ title: 'Espace', refererEmail: 'a@exemple.fr', bookingUrl: 'https://rdv.exemple.fr', stripeProductId: 'prod_1' }) },
  'POST /api/report': { who: 'admin-a', body: () => ({ title: 'Un bug', description: 'Il se passe ceci.', type: 'bug' }) },
  'POST /api/driver': { who: 'admin-a', body: () => ({ firstName: 'Léa', lastName: 'Roux', email: 'lea@exemple.fr', phone: '0612345678' }) },
  'PATCH /api/driver/{uuid}': { who: 'admin-a', body: () => ({ firstName: 'Anne', lastName: 'Témoin', email: 'anne.temoin@exemple.fr', phone: '0612345679' }) },
  'POST /api/vehicule': {
    who: 'admin-a',
    body: () => ({ brand: 'Peugeot', model: '3008', type: 'VP', immatriculation: 'GC-950-AA', circulationDate: '2020-01-01', entryDate: '2021-01-01', exitDate: '2025-01-01' }),
  },
  'PATCH /api/vehicule/{uuid}': {
    who: 'admin-a',
    body: () => ({ brand: 'Peugeot', model: '3008', type: 'VP', immatriculation: 'GC-950-AB', circulationDate: '2020-01-01', entryDate: '2021-01-01', exitDate: '2025-01-01' }),
  },
  'POST /api/sinister': {
    who: 'admin-a',
    body: () => ({ sinisterIntermediateRef: 'REF-1', sinisterDate: '2025-05-05', city: 'Lyon', vehicule: ids.vehicule, driver: ids.driver, totalCost: 10 }),
  },
  'PATCH /api/sinister/{uuid}': {
    who: 'admin-a',
    body: () => ({ sinisterIntermediateRef: 'REF-1', sinisterDate: '2025-05-05', city: 'Lyon', vehicule: ids.vehicule, driver: ids.driver, totalCost: 10 }),
  },
  'POST /api/indicators': { who: 'admin-a', body: () => ({ currentIndicators: [{ startDate: '2020-01-01', endDate: '2020-12-31', motorsCount: 3, cashReceived: 300 }] }) },
  'PUT /api/dashboard/config': { who: 'admin-a', body: () => ({ lossRatioPercentage: 70, claimFrequencyPercentage: 20 }) },
  'POST /api/contract/create-or-update': {
    who: 'admin-a',
    body: () => ({ insurer: 'Axa France', policyNumber: 'FLT-1', startDate: '2026-01-01', renewalDate: '2027-01-01', annualPremium: 1000, guarantees: [] }),
  },
  'POST /api/insurance-intermediary': {
    who: 'admin-a',
    body: () => ({ name: 'Cabinet', contactLastName: 'Roux', contactFirstName: 'Léa', email: 'lea@exemple.fr', productionEmail: 'production@exemple.fr', startDate: '2026-01-01' }),
  },
  'POST /api/document/folder': { who: 'admin-a', body: () => ({ folderName: 'Nouveau dossier', parent: ids.document }) },
  'PATCH /api/document/{uuid}': { who: 'admin-a', body: () => ({ name: 'Témoin renommé', parent: null, expiresOn: '2030-01-01' }) },
  // Validate keeps the mapping it checked (for the errors' download); commit applies the one row.
  'POST /api/import/{importId}/validate': { who: 'admin-a', body: () => ({ mapping: { lastName: 0, firstName: 1, phone: 2 }, mode: 'upsert' }) },
  'POST /api/import/{importId}/commit': { who: 'admin-a', body: () => ({ mapping: { lastName: 0, firstName: 1, phone: 2 }, mode: 'upsert' }) },
  // Account recovery: an unknown address and an unknown link write nothing (the same answers as known ones).
  'POST /api/auth/recover': { who: '', body: () => ({ email: 'inconnue-hostile@exemple.fr' }) },
  'POST /api/auth/recover/check': { who: '', body: () => ({ token: RECOVERY_TOKEN }) },
  // After the check above: it spends the link.
  'POST /api/auth/recover/password': { who: '', body: () => ({ token: RECOVERY_TOKEN, password: 'Une phrase assez longue 1', confirmation: 'Une phrase assez longue 1' }) },
  'POST /api/user/cgu': { who: 'admin-a', body: () => ({ version: CGU_VERSION }) },
  // Last: it ends the sessions of its caller, who sends nothing else here.
  'POST /api/auth/password': { who: 'user-a', body: () => ({ currentPassword: 'Motdepasse-tests-1', newPassword: 'Un-nouveau-mot-de-passe-1' }) },
};

/** Routes with a body that write nothing when valid: a recovery request for an unknown address, a link's check. */
const READS = new Set<string>(['POST /api/auth/recover', 'POST /api/auth/recover/check']);

/** Who asks the routes that take no body. */
const QUERY_CALLER: Record<string, string> = { '/api/organization': 'root', '/api/organization/environment': 'super-a', '/api/organization-user': 'super-a', '/api/environment': 'root' };

function urlOf(path: string, query: Record<string, string> = {}) {
  const filled = path.replace(/\{(\w+)\}/g, (_, name: string) => {
    if (path.startsWith('/api/environment')) return ids.environment!;
    if (path.startsWith('/api/user')) return ids.user!;
    if (path.startsWith('/api/vehicule/category')) return 'VP';
    if (path.startsWith('/api/import')) return name === 'entity' ? 'driver' : ids.import!;
    if (path.startsWith('/api/document')) return ids.document!;
    const register = /^\/api\/(driver|vehicule|sinister)/.exec(path)?.[1];
    return register ? ids[register]! : name;
  });
  const pairs = Object.entries(query).map(([k, v]) => `${k}=${encodeURIComponent(v)}`);
  return pairs.length > 0 ? `${filled}?${pairs.join('&')}` : filled;
}

/** The string variants of a schema (a nullable field is anyOf string / null). */
function stringPart(schema: Schema): Schema | undefined {
  if (schema.anyOf) return schema.anyOf.map(stringPart).find(Boolean);
  const types = ([] as string[]).concat(schema.type ?? []);
  return types.includes('string') && !schema.enum ? schema : undefined;
}

function operations() {
  return Object.entries(document.paths).flatMap(([path, ops]) => Object.entries(ops).map(([method, op]) => ({ key: `${method.toUpperCase()} ${path}`, method: method.toUpperCase(), path, op })));
}

const bodyFields = operations().flatMap(({ key, method, path, op }) => {
  const schema = op.requestBody?.content['application/json']?.schema;
  return Object.entries(schema?.properties ?? {}).flatMap(([field, property]) => {
    const text = stringPart(property);
    return text ? [{ key, method, path, field, text }] : [];
  });
});

const queryFields = operations().flatMap(({ key, method, path, op }) =>
  (op.parameters ?? []).flatMap((p) => {
    const text = p.in === 'query' ? stringPart(p.schema) : undefined;
    return text ? [{ key, method, path, field: p.name, text }] : [];
  }),
);

/** Characters of every kind, so that no compression or index trick makes a long value short. */
function randomText(length: number) {
  let out = '';
  while (out.length < length) out += Math.random().toString(36).slice(2);
  return out.slice(0, length);
}

/**
 * The hostile values for a string field: NUL, a lone surrogate, one character over its maximum.
 * A URL cannot carry a lone surrogate (its UTF-8 does not exist): not for a query.
 */
function hostile(text: Schema, where: 'body' | 'query'): [string, string][] {
  const variants: [string, string][] = [['a NUL character', 'ab\u0000cd']];
  if (where === 'body') variants.push(['a lone surrogate', 'ab\ud800cd']);
  if (text.format === 'date') {
    variants.push(['year 0000', '0000-01-01'], ['1899', '1899-12-31'], ['2101', '2101-01-01']);
  } else if (text.maxLength !== undefined) {
    variants.push([`${text.maxLength + 1} characters`, randomText(text.maxLength + 1)]);
  }
  return variants;
}

async function call(who: string, method: string, url: string, payload?: object): Promise<LightMyRequestResponse> {
  // As the web app: its header that a cross-site form cannot send.
  const options = { method: method as 'GET', url, headers: { [CSRF_HEADER]: CSRF_HEADER_VALUE }, ...(payload ? { payload } : {}) };
  return who ? t.as(tokens[who]!, options) : t.app.inject(options);
}

function expectFrenchFieldError(response: LightMyRequestResponse, field: string) {
  expect(response.statusCode, response.body).toBe(400);
  const body = response.json<{ statusCode: number; error: string; message: string; details: { path: string; message: string }[] }>();
  expect(body).toMatchObject({ statusCode: 400, error: 'Bad Request', message: expect.stringMatching(/^Données invalides/) });
  expect(body.details.map((d) => d.path)).toContain(field);
  const detail = body.details.find((d) => d.path === field)!;
  expect(detail.message).toMatch(/caractère|caractères maximum|invalide|Date|obligatoire|Identifiant|Catégorie|Tri|Valeur/);
}

describe('hostile text and dates in bodies: a French 400 naming the field, nothing written', () => {
  it('knows a valid body for every route that takes one (add the new route to VALID)', () => {
    const routes = operations().filter(({ op }) => op.requestBody).map(({ key }) => key);
    expect(routes.filter((key) => !VALID[key])).toEqual([]);
  });

  it.each(bodyFields.map((f) => [`${f.key} ${f.field}`, f] as const))('%s', async (_, { key, method, path, field, text }) => {
    const valid = VALID[key]!;
    for (const [, value] of hostile(text, 'body')) {
      const before = await fingerprint();
      const response = await call(valid.who, method, urlOf(path), { ...valid.body(), [field]: value });
      expectFrenchFieldError(response, field);
      expect(await fingerprint()).toBe(before);
    }
  });
});

describe('hostile text and dates in query strings: a French 400 naming the parameter, nothing written', () => {
  it.each(queryFields.map((f) => [`${f.key} ?${f.field}`, f] as const))('%s', async (_, { method, path, field, text }) => {
    const who = QUERY_CALLER[path] ?? 'admin-a';
    for (const [, value] of hostile(text, 'query')) {
      const before = await fingerprint();
      const response = await call(who, method, urlOf(path, { [field]: value }));
      expectFrenchFieldError(response, field);
      expect(await fingerprint()).toBe(before);
    }
  });
});

describe('the cases that answered 500', () => {
  it('a NUL in a driver name, a report and a search', async () => {
    const before = await fingerprint();
    expectFrenchFieldError(await call('admin-a', 'POST', '/api/driver', { firstName: 'Lé\u0000a', lastName: 'Roux' }), 'firstName');
    expectFrenchFieldError(await call('admin-a', 'POST', '/api/report', { title: 'Bug', description: 'a\u0000', type: 'bug' }), 'description');
    expectFrenchFieldError(await call('admin-a', 'GET', '/api/driver?search=a%00b'), 'search');
    expectFrenchFieldError(await call('admin-a', 'GET', '/api/sinister?search=%00'), 'search');
    expect(await fingerprint()).toBe(before);
  });

  it('year 0000 in a body and in a filter', async () => {
    const before = await fingerprint();
    const vehicule = await call('admin-a', 'POST', '/api/vehicule', { brand: 'Peugeot', model: '3008', type: 'VP', immatriculation: 'GC-950-AC', circulationDate: '0000-01-01' });
    expectFrenchFieldError(vehicule, 'circulationDate');
    expect(vehicule.json().details).toContainEqual({ path: 'circulationDate', message: 'Date hors limites : entre le 01/01/1900 et le 31/12/2100' });
    expectFrenchFieldError(await call('admin-a', 'POST', '/api/sinister', { sinisterDate: '0000-06-01', vehicule: ids.vehicule }), 'sinisterDate');
    expectFrenchFieldError(await call('admin-a', 'GET', '/api/sinister?startDate=0000-01-01'), 'startDate');
    expectFrenchFieldError(await call('admin-a', 'GET', '/api/vehicule?end=0000-12-31'), 'end');
    expectFrenchFieldError(await call('admin-a', 'DELETE', `/api/vehicule/${ids.vehicule}?exitDate=0000-01-01`), 'exitDate');
    expect(await fingerprint()).toBe(before);
  });

  it('a driver e-mail of a few thousand characters (too large for its index)', async () => {
    const before = await fingerprint();
    const email = `${randomText(3000)}@${randomText(40)}.fr`;
    const response = await call('admin-a', 'POST', '/api/driver', { firstName: 'Léa', lastName: 'Roux', email });
    expectFrenchFieldError(response, 'email');
    expect(response.json().details).toContainEqual({ path: 'email', message: 'Adresse e-mail : 254 caractères maximum' });
    expectFrenchFieldError(await call('admin-a', 'PATCH', `/api/driver/${ids.driver}`, { email }), 'email');
    expect(await fingerprint()).toBe(before);
  });

  it('an e-mail of 254 characters is still accepted', async () => {
    const email = `${'a'.repeat(64)}@${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(58)}.fr`;
    expect(email).toHaveLength(254);
    const response = await call('admin-a', 'POST', '/api/driver', { firstName: 'Léa', lastName: 'Longue', email });
    expect(response.statusCode, response.body).toBe(201);
  });

  it('an emoji (a surrogate pair) is text like any other', async () => {
    const response = await call('admin-a', 'POST', '/api/report', { title: 'Bravo 🚗', description: 'Merci 👍', type: 'suggestion' });
    expect(response.statusCode, response.body).toBe(201);
    expect(response.json()).toMatchObject({ title: 'Bravo 🚗' });
  });

  it('the valid bodies above are accepted: the 400s come from the hostile field alone', async () => {
    for (const [key, valid] of Object.entries(VALID)) {
      const [method, path] = key.split(' ') as [string, string];
      const before = await fingerprint();
      const response = await call(valid.who, method, urlOf(path), valid.body());
      expect(response.statusCode, `${key}: ${response.body}`).toBeLessThan(300);
      // The digest sees each write (a login, its session): "unchanged" above means something.
      if (READS.has(key)) expect(await fingerprint(), key).toBe(before);
      else expect(await fingerprint(), key).not.toBe(before);
    }
  });
});
