import { createHash } from 'node:crypto';
import { CSRF_HEADER, CSRF_HEADER_VALUE } from '@flotte/contract';
import { sql } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { billingCheckouts, billingInvoices } from '../../src/db/schema/billing.js';
import {
  createDrivers,
  createInsuranceContract,
  createInvitation,
  createSinisters,
  createUser,
  createVehicules,
  DEFAULT_TEST_PASSWORD,
  linkUser,
} from '../../src/seed/factories.js';
import { type EnvironmentFixtures, openEnvironments, UNKNOWN_UUID } from '../fixtures/environments.js';
import { type OpenApiOperation as Operation, type OpenApiSchema as Schema, openApiOperations } from '../openapi.js';
import type { TestContext } from '../test-app.js';

/**
 * Issue 20, point 2: the tenant matrix. Every operation of the committed OpenAPI document that
 * names a record — a path parameter, or a query or body field of format uuid — is called with the
 * ids of a victim organization (Étoile du Nord, in Cabinet Horizon's environment) by callers who
 * must not see it: a member of another organization of the same environment (for the
 * organization's records), a member, an administrator and the superadmin of another environment.
 * An id in a query or a body is sent beside the caller's own records in the path (its own claim,
 * import, survey…), as a leak through a link would happen.
 *
 * Each answer must be, to the status and message, the one the same call with an unknown id gets,
 * and never a 2xx (decision 002: a foreign id simply is not there):
 * - an id in the path or the query: 404; a 401 or 403 only when the route refuses the caller
 *   whatever the id (the same answer for an unknown id: nothing is revealed);
 * - an id in a body: 400 on its field (a mistake in the form, as the claims' links answer), 404
 *   where the route reaches a record through it, or 409 where a selection no longer matches (the
 *   imports' exits);
 * - an id filtering a list or its export: the page of an unknown id, to the byte (no row of the
 *   victim; an empty page, not a 404, so that a filter on a record since deleted still shows its
 *   page and its « introuvable » chip, as the web does).
 * The victim's rows (every table holding its organization's or its environment's rows, its two
 * rows and its members' accounts, read as the system role) hash the same before and after the whole
 * matrix. Then the same calls by the victim's own administrator (its superadmin, else ROOT, for an
 * environment's records) must not answer 404: the ids address real records.
 *
 * The only hand-written parts are KINDS, what each parameter names and how to obtain one in an
 * organization's world, and FIELD_VALUES, the few values a schema cannot say. An operation with a
 * parameter KINDS does not know fails the suite, so a later route cannot escape the matrix. The
 * file prints every call and its answer.
 */

const LONG = 120_000;

// ---------------------------------------------------------------------------------------------
// What a parameter names: the hand-written map
// ---------------------------------------------------------------------------------------------

/** The records of one organization and of its environment that a route can address. */
type World = {
  organization: string;
  environment: string;
  driver: string;
  vehicule: string;
  sinister: string;
  driverDocument: string;
  vehiculeDocument: string;
  sinisterDocument: string;
  folder: string;
  file: string;
  alert: string;
  environmentAlert: string;
  survey: string;
  import: string;
  invitation: string;
  member: string;
  adminLink: string;
  admin: string;
  session: string;
  indicator: string;
  contract: string;
  invoice: string;
  checkoutSession: string;
  tier: string;
};

/** Who owns a kind of record: its organization's administrator, its environment's superadmin, or ROOT alone. */
type Owner = 'admin' | 'super' | 'root';
type Kind =
  /** A record of the organization (scope 'organization') or of its environment (scope 'environment'). */
  | { id: (w: World) => string; scope: 'organization' | 'environment'; owner: Owner; self?: true }
  /** Not a record of anyone's: in a path, this value (the register an import fills, a plan); in a body, the schema's sample. */
  | { value: string; why: string }
  /** A parameter whose operation is outside the matrix, with the reason (a public image's secret version). */
  | { skip: string };

/**
 * Every parameter of every operation, by « resource name »: the first segment of the path after
 * /api and the parameter's name (a body field by its path, arrays as []).
 */
const KINDS: Record<string, Kind> = {
  'driver uuid': { id: (w) => w.driver, scope: 'organization', owner: 'admin' },
  'driver documentUuid': { id: (w) => w.driverDocument, scope: 'organization', owner: 'admin' },
  'vehicule uuid': { id: (w) => w.vehicule, scope: 'organization', owner: 'admin' },
  'vehicule documentUuid': { id: (w) => w.vehiculeDocument, scope: 'organization', owner: 'admin' },
  'vehicule id': { value: 'VP', why: 'a vehicle category: the route changes the caller’s own vehicles' },
  'sinister uuid': { id: (w) => w.sinister, scope: 'organization', owner: 'admin' },
  'sinister id': { id: (w) => w.sinister, scope: 'organization', owner: 'admin' },
  'sinister documentUuid': { id: (w) => w.sinisterDocument, scope: 'organization', owner: 'admin' },
  'sinister vehicule': { id: (w) => w.vehicule, scope: 'organization', owner: 'admin' },
  'sinister driver': { id: (w) => w.driver, scope: 'organization', owner: 'admin' },
  'sinister guarantee': { value: 'catalogue', why: 'the guarantees are one list shared by every organization' },
  'sinister garantee': { value: 'catalogue', why: 'the guarantees are one list shared by every organization' },
  'document uuid': { id: (w) => w.file, scope: 'organization', owner: 'admin' },
  'document parent': { id: (w) => w.folder, scope: 'organization', owner: 'admin' },
  // The user routes address the caller itself: in an attacker's own request, its own account.
  'user uuid': { id: (w) => w.admin, scope: 'organization', owner: 'admin', self: true },
  'user version': { skip: 'a public avatar: served without a token at a URL whose version is its secret (decision 042)' },
  'user currentOrganizationUser': { id: (w) => w.adminLink, scope: 'organization', owner: 'admin' },
  'user currentOrganizationUser.uuid': { id: (w) => w.adminLink, scope: 'organization', owner: 'admin' },
  'organization uuid': { id: (w) => w.organization, scope: 'organization', owner: 'admin' },
  'organization version': { skip: 'a public logo: served without a token at a URL whose version is its secret (decision 042)' },
  'environment uuid': { id: (w) => w.environment, scope: 'environment', owner: 'super' },
  'environment version': { skip: 'a public logo: served without a token at a URL whose version is its secret (decision 042)' },
  'environment tierUuid': { id: (w) => w.tier, scope: 'environment', owner: 'root' },
  'environment alertUuid': { id: (w) => w.environmentAlert, scope: 'environment', owner: 'super' },
  'environment target.organizations[]': { id: (w) => w.organization, scope: 'environment', owner: 'super' },
  'environment-user uuid': { id: (w) => w.environment, scope: 'environment', owner: 'root' },
  'environment-user environmentUuid': { id: (w) => w.environment, scope: 'environment', owner: 'super' },
  'organization-user id': { id: (w) => w.member, scope: 'organization', owner: 'admin' },
  'organization-user organization': { id: (w) => w.organization, scope: 'organization', owner: 'admin' },
  'organization-user organization.uuid': { id: (w) => w.organization, scope: 'environment', owner: 'super' },
  'organization-user user': { id: (w) => w.admin, scope: 'environment', owner: 'super' },
  'organization-user user.uuid': { id: (w) => w.admin, scope: 'environment', owner: 'super' },
  'broker environment': { id: (w) => w.environment, scope: 'environment', owner: 'super' },
  'import importId': { id: (w) => w.import, scope: 'organization', owner: 'admin' },
  'import entity': { value: 'vehicule', why: 'the register an import fills' },
  'import selection.exits[].uuid': { id: (w) => w.vehicule, scope: 'organization', owner: 'admin' },
  'alert uuid': { id: (w) => w.alert, scope: 'organization', owner: 'admin' },
  'survey uuid': { id: (w) => w.survey, scope: 'environment', owner: 'super' },
  'survey environment': { id: (w) => w.environment, scope: 'environment', owner: 'super' },
  'survey organization': { id: (w) => w.organization, scope: 'environment', owner: 'super' },
  'survey organizations[]': { id: (w) => w.organization, scope: 'environment', owner: 'super' },
  'survey questions[].uuid': { value: 'new', why: 'the survey’s own question ids, chosen by the editor inside the survey' },
  'survey questions[].choices[].uuid': { value: 'new', why: 'the survey’s own choice ids, chosen by the editor inside the survey' },
  'survey-response answers[].question': { value: 'link', why: 'a question of the survey the link opens (the link is the only credential)' },
  'survey-response answers[].choices[]': { value: 'link', why: 'a choice of the survey the link opens (the link is the only credential)' },
  'organization-invitation uuid': { id: (w) => w.invitation, scope: 'organization', owner: 'admin' },
  'auth uuid': { id: (w) => w.session, scope: 'organization', owner: 'admin' },
  'indicators id': { id: (w) => w.indicator, scope: 'organization', owner: 'admin' },
  'indicators currentIndicators[].uuid': { id: (w) => w.indicator, scope: 'organization', owner: 'admin' },
  'indicators currentIndicators[].previousIndicatorUuid': { id: (w) => w.indicator, scope: 'organization', owner: 'admin' },
  'dashboard indicator': { id: (w) => w.indicator, scope: 'organization', owner: 'admin' },
  'contract uuid': { id: (w) => w.contract, scope: 'organization', owner: 'admin' },
  'contract guarantees[].guaranteeUuid': { value: 'catalogue', why: 'the guarantees are one list shared by every organization' },
  'audit-log actor': { id: (w) => w.admin, scope: 'organization', owner: 'admin' },
  'audit-log record': { id: (w) => w.driver, scope: 'organization', owner: 'admin' },
  'guarantees uuid': { skip: 'the guarantees are the operator’s one list, shared by every organization (decision 043)' },
  'stripe id': { value: 'pro', why: 'a plan of the catalogue every organization reads' },
  'stripe sessionId': { id: (w) => w.checkoutSession, scope: 'organization', owner: 'admin' },
  'stripe uuid': { id: (w) => w.invoice, scope: 'organization', owner: 'admin' },
};

// ---------------------------------------------------------------------------------------------
// The cases, generated from the document
// ---------------------------------------------------------------------------------------------

/** A union's branches (zod writes a discriminated union as oneOf). */
const alternatives = (schema: Schema): Schema[] => [...(schema.anyOf ?? []), ...(schema.oneOf ?? [])];

/** A field of format uuid anywhere in a body schema, by its path (arrays as []). */
function uuidFields(schema: Schema | undefined, prefix = ''): string[] {
  if (!schema) return [];
  if (schema.format === 'uuid') return [prefix];
  const parts = alternatives(schema).flatMap((part) => uuidFields(part, prefix));
  for (const [key, property] of Object.entries(schema.properties ?? {})) parts.push(...uuidFields(property, prefix ? `${prefix}.${key}` : key));
  if (schema.items) parts.push(...uuidFields(schema.items, `${prefix}[]`));
  return [...new Set(parts)];
}

type Slot = { where: 'path' | 'query' | 'body'; name: string; key: string };
type MatrixOperation = { method: string; path: string; resource: string; operation: Operation; slots: Slot[]; multipartField?: string };

const resourceOf = (path: string) => path.split('/')[2]!;

const ALL_OPERATIONS: MatrixOperation[] = openApiOperations().map(({ method, path, operation }) => {
    const resource = resourceOf(path);
    const parameters = operation.parameters ?? [];
    const slots: Slot[] = [
      ...parameters.filter((p) => p.in === 'path').map((p) => ({ where: 'path' as const, name: p.name })),
      ...parameters.filter((p) => p.in === 'query' && p.schema.format === 'uuid').map((p) => ({ where: 'query' as const, name: p.name })),
      ...uuidFields(operation.requestBody?.content['application/json']?.schema).map((name) => ({ where: 'body' as const, name })),
    ].map((slot) => ({ ...slot, key: `${resource} ${slot.name}` }));
    const multipartField = /champ multipart « (\w+) »/.exec(operation.summary ?? '')?.[1];
    return { method, path, resource, operation, slots, ...(multipartField ? { multipartField } : {}) };
  });

/** The operations that name something, and the record slots among them. */
const NAMING = ALL_OPERATIONS.filter((o) => o.slots.length > 0);
const UNKNOWN_SLOTS = NAMING.flatMap((o) => o.slots.filter((s) => !KINDS[s.key]).map((s) => `${o.method} ${o.path}: ${s.where} « ${s.name} » (key « ${s.key} »)`));
const isRecord = (slot: Slot) => {
  const kind = KINDS[slot.key];
  return kind !== undefined && 'id' in kind;
};
const MATRIX = NAMING.filter((o) => o.slots.every((s) => KINDS[s.key] && !('skip' in KINDS[s.key]!)) && o.slots.some(isRecord));

/** The values a schema cannot say (a typed confirmation word), by field name. */
const FIELD_VALUES: Record<string, unknown> = { confirmation: 'SUPPRIMER', mapping: { immatriculation: 0, brand: 1, model: 2 }, mode: 'compare' };

/** A deterministic value the schema accepts, for the fields around the ids; `name` is the field's. */
function sample(schema: Schema, name = ''): unknown {
  if (FIELD_VALUES[name] !== undefined) return FIELD_VALUES[name];
  const branches = alternatives(schema);
  if (branches.length > 0) return sample(branches.find((part) => part.type !== 'null') ?? branches[0]!, name);
  if (schema.enum) return schema.enum[0];
  if (schema.const !== undefined) return schema.const;
  const type = ([] as string[]).concat(schema.type ?? []).find((t) => t !== 'null');
  switch (type) {
    case 'string': {
      if (schema.format === 'uuid') return UNKNOWN_UUID;
      // An end after its start: renewal, end and exit dates fall later in the year.
      if (schema.format === 'date') return /end|renewal|exit|to$/i.test(name) ? '2025-12-31' : '2025-01-15';
      if (schema.format === 'date-time') return '2025-01-15T12:00:00.000Z';
      if (/e-?mail/i.test(name)) return 'matrice@exemple.fr';
      if (/password/i.test(name)) return 'pas-le-bon-mot-de-passe';
      if (/phone/i.test(name)) return '0612345678';
      if (/url/i.test(name)) return 'https://exemple.fr';
      if (/immatriculation|plate/i.test(name)) return 'GH-456-KL';
      const text = 'Matrice';
      return text.length >= (schema.minLength ?? 0) ? text : text.padEnd(schema.minLength!, 'x');
    }
    case 'integer':
    case 'number':
      return Math.max(schema.minimum ?? 0, (schema.exclusiveMinimum ?? -1) + 1, 1);
    case 'boolean':
      return false;
    case 'array':
      return schema.minItems ? [sample(schema.items ?? {}, name)] : [];
    case 'object':
      // The required fields, and the optional ones FIELD_VALUES names (an import's mode).
      return Object.fromEntries(
        Object.keys(schema.properties ?? {})
          .filter((key) => schema.required?.includes(key) || FIELD_VALUES[key] !== undefined)
          .map((key) => [key, sample(schema.properties![key]!, key)]),
      );
    default:
      return 'Matrice';
  }
}

/** The branch of a union (or the schema itself) that has property `key`. */
const branchWith = (schema: Schema | undefined, key: string): Schema => (schema ? alternatives(schema).find((part) => part.properties?.[key]) : undefined) ?? schema ?? {};

/**
 * Puts `value` at a body field's path (« a.b[].c »), creating the objects on the way (a union's
 * branch that has the next field) and one-item arrays.
 */
function place(target: Record<string, unknown>, schema: Schema, path: string, value: unknown) {
  const [step, ...rest] = path.split('.');
  const key = step!.replace(/\[\]/g, '');
  const arrays = (step!.match(/\[\]/g) ?? []).length;
  const property = branchWith(schema, key).properties?.[key] ?? {};
  if (rest.length === 0) {
    target[key] = arrays > 0 ? [value] : value;
    return;
  }
  const itemSchema = arrays > 0 ? (alternatives(property).find((part) => part.items)?.items ?? property.items ?? {}) : property;
  const branch = branchWith(itemSchema, rest[0]!.replace(/\[\]/g, ''));
  const child = { ...(sample(branch) as Record<string, unknown>) };
  place(child, branch, rest.join('.'), value);
  target[key] = arrays > 0 ? [child] : child;
}

// ---------------------------------------------------------------------------------------------
// The worlds: the victim's, and the attackers' own (for an id in a body beside their own path)
// ---------------------------------------------------------------------------------------------

const PDF = Buffer.from('%PDF-1.4\n1 0 obj\n<< /Type /Catalog >>\nendobj\ntrailer\n<< /Root 1 0 R >>\n%%EOF\n', 'latin1');
/** A fleet file without the world's vehicle: compared with the fleet, the vehicle is missing and may be exited. */
const CSV = Buffer.from('Immatriculation;Marque;Modèle\r\nAB-123-CD;Renault;Clio\r\n', 'latin1');
let PNG: Buffer;

/** One file in a multipart body, in the field its route names. */
function multipart(field: string, fileName: string, content: Buffer) {
  const boundary = `----matrice${Math.random().toString(16).slice(2)}`;
  const payload = Buffer.concat([
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="${fileName}"\r\nContent-Type: application/octet-stream\r\n\r\n`),
    content,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return { payload, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

/** Callers by name: the fixtures' logins and the ones this file adds. */
const tokens: Record<string, string> = {};
let t: TestContext;
let f: EnvironmentFixtures;

async function call(who: string, options: { method: string; url: string; payload?: unknown; headers?: Record<string, string> }): Promise<LightMyRequestResponse> {
  const headers: Record<string, string> = { [CSRF_HEADER]: CSRF_HEADER_VALUE, authorization: `Bearer ${tokens[who]}`, ...options.headers };
  return t.app.inject({ method: options.method as 'GET', url: options.url, headers, ...(options.payload === undefined ? {} : { payload: options.payload as string }) });
}

async function ok<T>(who: string, options: { method: string; url: string; payload?: unknown; headers?: Record<string, string> }): Promise<T> {
  const response = await call(who, options);
  expect(response.statusCode, `${who} ${options.method} ${options.url}: ${response.body}`).toBeLessThan(300);
  return response.json<T>();
}

/** Two tiers of one environment never start on the same day. */
let tierDays = 0;

/** An organization's records of every kind, and its environment's, made as their owners make them. */
async function buildWorld(organization: string, environment: string, admin: string, superadmin: string): Promise<World> {
  const seeded = await t.seed(async (tx) => {
    const [driver] = await createDrivers(tx, organization, [{ firstName: 'Victor', lastName: 'Témoin', email: 'victor@exemple.fr' }]);
    const [vehicule] = await createVehicules(tx, organization, [{ immatriculation: 'GH-123-JK' }]);
    const [sinister] = await createSinisters(tx, organization, [{ vehiculeUuid: vehicule!.uuid, driverUuid: driver!.uuid }]);
    const contract = await createInsuranceContract(tx, organization);
    const invitation = await createInvitation(tx, { organizationUuid: organization, email: `invite-${organization.slice(0, 8)}@exemple.fr` });
    const sessionId = `cs_matrice_${organization.slice(0, 8)}`;
    await tx.insert(billingCheckouts).values({ organizationUuid: organization, provider: 'embedded', sessionId, planId: 'pro', interval: 'month', quantity: 1, url: 'https://exemple.fr/paiement' });
    const [invoice] = await tx
      .insert(billingInvoices)
      .values({ organizationUuid: organization, provider: 'embedded', invoiceId: `in_matrice_${organization.slice(0, 8)}`, status: 'paid', amountHtCents: 1000, amountTtcCents: 1200, issuedAt: new Date('2026-01-01T00:00:00Z'), eventAt: 1 })
      .returning({ uuid: billingInvoices.uuid });
    return { driver: driver!.uuid, vehicule: vehicule!.uuid, sinister: sinister!.uuid, contract: contract.uuid, invitation: invitation.uuid, checkoutSession: sessionId, invoice: invoice!.uuid };
  });
  const attach = async (path: string) => (await ok<{ data: { uuid: string }[] }>(admin, { method: 'POST', url: `/api/${path}/documents`, ...multipart('files', 'piece.pdf', PDF) })).data[0]!.uuid;
  const file = (await ok<{ data: { uuid: string }[] }>(admin, { method: 'POST', url: '/api/document/upload', ...multipart('files', 'contrat.pdf', PDF) })).data[0]!.uuid;
  const folder = (await ok<{ uuid: string }>(admin, { method: 'POST', url: '/api/document/folder', payload: { folderName: 'Dossier témoin' } })).uuid;
  const imported = await ok<{ importId: string }>(admin, { method: 'POST', url: '/api/import/vehicule/preview', ...multipart('file', 'flotte.csv', CSV) });
  await ok(admin, { method: 'POST', url: '/api/indicators', payload: { currentIndicators: [{ startDate: '2025-01-01', endDate: '2025-12-31', motorsCount: 3, cashReceived: 300 }] } });
  const indicator = (await ok<{ uuid: string }[]>(admin, { method: 'GET', url: '/api/indicators' }))[0]!.uuid;
  const environmentAlert = (
    await ok<{ uuid: string }>(superadmin, {
      method: 'POST',
      url: `/api/environment/${environment}/alert`,
      payload: { title: 'Prévention', body: 'Pensez aux pneus.', severity: 'information', target: { kind: 'organizations', organizations: [organization] } },
    })
  ).uuid;
  const alert = (await ok<{ data: { uuid: string }[] }>(admin, { method: 'GET', url: '/api/alert' })).data[0]!.uuid;
  const survey = (await ok<{ uuid: string }>(superadmin, { method: 'POST', url: '/api/survey', payload: { title: 'Satisfaction', questions: [{ kind: 'text', label: 'Une remarque ?' }] } })).uuid;
  const tier = (await ok<{ uuid: string }>('root', { method: 'POST', url: `/api/environment/${environment}/tier`, payload: { title: 'Palier témoin', startDate: `2031-03-${String(++tierDays).padStart(2, '0')}`, priceCents: 1200 } })).uuid;
  const me = await ok<{ uuid: string }>(admin, { method: 'GET', url: '/api/auth/me' });
  const links = await ok<{ data: { uuid: string; role: string; user: { uuid: string } }[] }>(admin, { method: 'GET', url: `/api/organization-user?organization=${organization}` });
  // A second session of the administrator: revoking it (the owner's call) leaves the file's token alive.
  await t.login(`${admin}@exemple.fr`);
  const session = (await ok<{ data: { uuid: string; current: boolean }[] }>(admin, { method: 'GET', url: '/api/auth/sessions' })).data.find((s) => !s.current)!.uuid;
  return {
    ...seeded,
    organization,
    environment,
    driverDocument: await attach(`driver/${seeded.driver}`),
    vehiculeDocument: await attach(`vehicule/${seeded.vehicule}`),
    sinisterDocument: await attach(`sinister/${seeded.sinister}`),
    file,
    folder,
    import: imported.importId,
    indicator,
    environmentAlert,
    alert,
    survey,
    tier,
    admin: me.uuid,
    adminLink: links.data.find((link) => link.user.uuid === me.uuid)!.uuid,
    member: links.data.find((link) => link.role === 'USER')!.uuid,
    session,
  };
}

// ---------------------------------------------------------------------------------------------
// The victim's rows, hashed
// ---------------------------------------------------------------------------------------------

/**
 * Every row of the organization (every table with an organization_uuid), of its environment (every
 * table with an environment_uuid), the two rows themselves and its members' accounts, read as the
 * system role, in one digest.
 */
async function victimDigest(world: World): Promise<string> {
  const rows = <T>(result: unknown) => (result as { rows: T[] }).rows;
  return t.seed(async (tx) => {
    const columns = rows<{ table_name: string; column_name: string }>(
      await tx.execute(sql`select c.table_name, c.column_name from information_schema.columns c join information_schema.tables t using (table_schema, table_name)
        where c.table_schema = 'public' and t.table_type = 'BASE TABLE' and c.column_name in ('organization_uuid', 'environment_uuid') order by 1, 2`),
    );
    const parts: string[] = [];
    const digestOf = async (label: string, from: string, where: ReturnType<typeof sql>) => {
      const [row] = rows<{ n: string; digest: string | null }>(
        await tx.execute(sql`select count(*)::text as n, md5(string_agg(r::text, '|' order by r::text)) as digest from ${sql.identifier(from)} r where ${where}`),
      );
      parts.push(`${label}:${row!.n}:${row!.digest ?? ''}`);
    };
    for (const { table_name: table, column_name: column } of columns) {
      await digestOf(`${table}.${column}`, table, sql`${sql.identifier(column)} = ${column === 'organization_uuid' ? world.organization : world.environment}`);
    }
    await digestOf('organizations', 'organizations', sql`uuid = ${world.organization}`);
    await digestOf('environments', 'environments', sql`uuid = ${world.environment}`);
    await digestOf('users', 'users', sql`uuid in (select user_uuid from organization_users where organization_uuid = ${world.organization})`);
    return createHash('sha256').update(parts.join('\n')).digest('hex');
  });
}

// ---------------------------------------------------------------------------------------------
// Requests
// ---------------------------------------------------------------------------------------------

type Request = { method: string; url: string; payload?: unknown; headers?: Record<string, string> };

/**
 * The operation's request: its path and record slots filled by `idOf` (the victim's world, an
 * attacker's own, or an unknown id), its other path parameters by their value, required query
 * parameters and body fields by a sample the schema accepts.
 */
function request(op: MatrixOperation, idOf: (slot: Slot) => string | undefined, aimed: readonly Slot[] = []): Request {
  const parameters = op.operation.parameters ?? [];
  const value = (slot: Slot) => {
    const kind = KINDS[slot.key]!;
    return 'value' in kind ? kind.value : idOf(slot);
  };
  let url = op.path;
  const query: string[] = [];
  for (const slot of op.slots.filter((s) => s.where === 'path')) url = url.replace(`{${slot.name}}`, encodeURIComponent(value(slot) ?? ''));
  for (const parameter of parameters.filter((p) => p.in === 'query')) {
    const slot = op.slots.find((s) => s.where === 'query' && s.name === parameter.name);
    const id = slot && isRecord(slot) ? idOf(slot) : undefined;
    if (id !== undefined) query.push(`${parameter.name}=${encodeURIComponent(id)}`);
    else if (parameter.required) query.push(`${parameter.name}=${encodeURIComponent(String(sample(parameter.schema, parameter.name)))}`);
  }
  const full = `${url}${query.length > 0 ? `?${query.join('&')}` : ''}`;
  const bodySchema = op.operation.requestBody?.content['application/json']?.schema;
  if (bodySchema) {
    const body = sample(bodySchema) as Record<string, unknown>;
    // The aimed slots last: a union's two forms of one field (« x » and « x.uuid ») end as the aimed one.
    const slots = op.slots.filter((s) => s.where === 'body' && isRecord(s));
    for (const slot of [...slots.filter((s) => !aimed.includes(s)), ...slots.filter((s) => aimed.includes(s))]) {
      const id = idOf(slot);
      if (id !== undefined) place(body, bodySchema, slot.name, id);
    }
    return { method: op.method, url: full, payload: body };
  }
  if (op.multipartField) {
    const file = op.multipartField === 'files' ? multipart('files', 'piece.pdf', PDF) : multipart('file', /import/.test(op.path) ? 'flotte.csv' : 'image.png', /import/.test(op.path) ? CSV : PNG);
    return { method: op.method, url: full, ...file };
  }
  return { method: op.method, url: full };
}

const kindOf = (slot: Slot) => KINDS[slot.key] as Extract<Kind, { id: unknown }>;
const victimId = (slot: Slot) => kindOf(slot).id(victim);
/** Who may reach an operation's victim ids: its administrator; its environment's superadmin, else ROOT; or ROOT alone. */
const ownersOf = (op: MatrixOperation): string[] => {
  const owners = op.slots.filter(isRecord).map((slot) => kindOf(slot).owner);
  return owners.includes('root') ? ['root'] : owners.includes('super') ? ['super-a', 'root'] : ['admin-a'];
};

/**
 * The cases of one operation: its path with the victim's ids (and the victim's ids everywhere
 * else), then each query or body slot alone holding a victim's id while the path holds the
 * caller's own records (an id in a body beside one's own path is how such a leak happens).
 */
type Case = { op: MatrixOperation; target: 'path' | Slot; expected: readonly number[] };
function casesOf(op: MatrixOperation): Case[] {
  const cases: Case[] = [];
  const hasPath = op.slots.some((s) => s.where === 'path' && isRecord(s));
  if (hasPath) cases.push({ op, target: 'path', expected: [404] });
  // A body's foreign id is a mistake in the form (400 on its field, as the claims' links answer), or the
  // record the route would reach through it is missing (404), or a selection no longer matches (409, the imports').
  for (const slot of op.slots.filter((s) => s.where !== 'path' && isRecord(s))) cases.push({ op, target: slot, expected: slot.where === 'query' ? [404] : [400, 404, 409] });
  return cases;
}

/**
 * Who attacks, whether a kind of record is foreign to them (a member of Transports Alpha shares the
 * victim's environment) and the world of their own records.
 */
const ATTACKERS = [
  { who: 'user-a2', foreign: (scope: 'organization' | 'environment') => scope === 'organization', world: 'a2' },
  // A member of the other environment, for its records (Transports Alpha's member covers the organizations').
  { who: 'user-b', foreign: (scope: 'organization' | 'environment') => scope === 'environment', world: 'b' },
  { who: 'admin-b', foreign: () => true, world: 'b' },
  // Working in Logistique Bêta, an organization of its environment (beforeAll selects it).
  { who: 'super-b', foreign: () => true, world: 'b' },
] as const;

let victim: World;
/** Each attacker's own account, for the routes that address the caller itself. */
const selves: Record<string, string> = {};
const worlds = {} as Record<'a2' | 'b', World>;

/** A list or its export: a query id there filters the caller's own rows rather than naming a record to reach. */
function isFilter(op: MatrixOperation): boolean {
  const page = (op.operation as { responses?: Record<string, { content?: Record<string, { schema?: Schema }> }> }).responses?.['200']?.content?.['application/json']?.schema;
  return op.path.endsWith('/export') || page?.properties?.data?.type === 'array';
}
const randomUuid = () => crypto.randomUUID();

beforeAll(async () => {
  ({ t, f } = await (async () => {
    const opened = await openEnvironments(['root', 'super-a', 'super-b', 'admin-a', 'user-a2', 'user-b']);
    Object.assign(tokens, opened.tokens);
    return opened;
  })());
  // The fixtures have no administrator in Transports Alpha nor in the other environment: each gets one.
  await t.seed(async (tx) => {
    await linkUser(tx, f.orgA2.uuid, (await createUser(tx, { email: 'admin-a2@exemple.fr' })).uuid, 'ADMIN');
    await linkUser(tx, f.orgB1.uuid, (await createUser(tx, { email: 'admin-b@exemple.fr' })).uuid, 'ADMIN');
  });
  tokens['admin-a2'] = await t.login('admin-a2@exemple.fr', DEFAULT_TEST_PASSWORD);
  tokens['admin-b'] = await t.login('admin-b@exemple.fr', DEFAULT_TEST_PASSWORD);
  const { default: sharp } = await import('sharp');
  PNG = await sharp({ create: { width: 4, height: 4, channels: 3, background: '#123456' } }).png().toBuffer();
  for (const attacker of ATTACKERS) selves[attacker.who] = (await ok<{ uuid: string }>(attacker.who, { method: 'GET', url: '/api/auth/me' })).uuid;
  victim = await buildWorld(f.orgA1.uuid, f.envA.uuid, 'admin-a', 'super-a');
  worlds.a2 = await buildWorld(f.orgA2.uuid, f.envA.uuid, 'admin-a2', 'super-a');
  worlds.b = await buildWorld(f.orgB1.uuid, f.envB.uuid, 'admin-b', 'super-b');
  // The other environment's superadmin works in one of its organizations, as its screens do.
  await ok('super-b', { method: 'PATCH', url: `/api/user/${selves['super-b']}`, payload: { currentOrganizationUser: worlds.b.member } });
}, LONG);
afterAll(() => t?.close());

const describeRequest = (who: string, r: Request) => `${who} ${r.method} ${r.url}${r.payload === undefined || Buffer.isBuffer(r.payload) ? '' : ` ${JSON.stringify(r.payload)}`}`;
/** An answer as « status message » (an error's message; a 2xx's type and length). */
function said(response: LightMyRequestResponse): string {
  if (response.statusCode < 300) return `${response.statusCode} ${String(response.headers['content-type'] ?? '').split(';')[0]} ${response.rawPayload.length} o`;
  const message = /^application\/json/.test(String(response.headers['content-type'])) ? (response.json<{ message?: string }>().message ?? '') : response.body;
  return `${response.statusCode} ${message.slice(0, 100)}`;
}

describe('tenant matrix: another organization’s ids answer as unknown ids, and change nothing', () => {
  it('knows every parameter that names something (a new route must say what its ids are)', () => {
    expect(UNKNOWN_SLOTS, 'parameters KINDS does not know').toEqual([]);
    expect(MATRIX.length).toBeGreaterThan(60);
  });

  it(
    'answers every attacker as for an unknown id, never a 2xx, and leaves the victim’s rows unchanged; the victim’s owners reach the same ids',
    async () => {
      const lines: string[] = [];
      const failures: string[] = [];
      const before = await victimDigest(victim);

      for (const op of MATRIX) {
        for (const c of casesOf(op)) {
          for (const attacker of ATTACKERS) {
            const aimed = c.target === 'path' ? op.slots.filter(isRecord) : [c.target];
            if (!aimed.every((slot) => attacker.foreign(kindOf(slot).scope))) continue;
            const own = worlds[attacker.world];
            const isAimed = (slot: Slot) => aimed.includes(slot);
            // Beside the aimed id: the caller's own records in the path and the body, no other filter in the query.
            const ownId = (slot: Slot) => (slot.where === 'query' ? undefined : kindOf(slot).self ? selves[attacker.who]! : kindOf(slot).id(own));
            const fill = (aimedId: (slot: Slot) => string) => (slot: Slot) => (isAimed(slot) ? aimedId(slot) : ownId(slot));
            const foreign = request(op, fill(victimId), aimed);
            const unknown = request(op, fill(randomUuid), aimed);
            const answer = await call(attacker.who, foreign);
            const reference = await call(attacker.who, unknown);
            const target = c.target === 'path' ? 'path' : `${c.target.where} ${c.target.name}`;
            lines.push(`${attacker.who.padEnd(8)} ${op.method} ${op.path} [${target}] → ${said(answer)} (unknown id: ${said(reference)})`);
            const sameAsUnknown = answer.statusCode === reference.statusCode && said(answer) === said(reference);
            const refusedWhateverTheId = sameAsUnknown && (answer.statusCode === 401 || answer.statusCode === 403);
            // A list filtered by an id the caller cannot see is the page of an unknown id, to the byte (no row of the victim).
            const emptyFilter = c.target !== 'path' && c.target.where === 'query' && isFilter(op) && answer.statusCode === 200 && answer.body === reference.body;
            if (answer.statusCode < 300 && !emptyFilter) failures.push(`LEAK 2xx: ${describeRequest(attacker.who, foreign)} → ${answer.statusCode} ${answer.body.slice(0, 200)}`);
            else if (!sameAsUnknown) failures.push(`LEAK (not the answer of an unknown id): ${describeRequest(attacker.who, foreign)} → ${said(answer)}; unknown id → ${said(reference)}`);
            else if (!refusedWhateverTheId && !emptyFilter && !c.expected.includes(answer.statusCode))
              failures.push(`expected ${c.expected.join(' or ')}: ${describeRequest(attacker.who, foreign)} → ${said(answer)}`);
          }
        }
      }
      const after = await victimDigest(victim);
      lines.push(`victim's rows digest: before ${before.slice(0, 16)}, after ${after.slice(0, 16)}`);

      // The owners last (they write): reads and changes first, then removals, the finer ones before the records they hang on.
      const rank = (op: MatrixOperation) => (op.method !== 'DELETE' ? 0 : /\/(hard|permanent)$/.test(op.path) ? 2 : 1);
      const owned = [...MATRIX].sort((a, b) => rank(a) - rank(b) || (rank(a) === 1 ? b.path.split('/').length - a.path.split('/').length : 0));
      for (const op of owned) {
        const mine = request(op, victimId);
        // A restoration restores a removed record: the owner removes it first.
        const removal = op.path.includes('/restore') ? MATRIX.find((o) => o.method === 'DELETE' && o.path === op.path.replace('/restore', '')) : undefined;
        let reached = '';
        for (const owner of ownersOf(op)) {
          if (removal) await call(owner, request(removal, victimId));
          const answer = await call(owner, mine);
          lines.push(`${owner.padEnd(8)} ${op.method} ${op.path} [owner] → ${said(answer)}`);
          if (answer.statusCode !== 404) {
            reached = owner;
            break;
          }
        }
        if (!reached) failures.push(`no owner reaches the ids (404): ${describeRequest(ownersOf(op).join(', '), mine)}`);
      }

      process.stdout.write(`tenant matrix: ${MATRIX.length} operations, ${lines.length} calls\n${lines.join('\n')}\n`);
      expect(failures, failures.join('\n')).toEqual([]);
      expect(after, 'the victim organization’s rows changed').toBe(before);
    },
    LONG * 3,
  );
});
