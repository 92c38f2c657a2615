import { randomUUID } from 'node:crypto';
import { api } from '../../process/harness.js';
import { type OpenApiOperation, type OpenApiSchema, openApiOperations } from '../../openapi.js';

/**
 * The scanners' targets, read from the committed OpenAPI document: a route that `npm run openapi`
 * writes joins the scan. A target is one request with a valid example for each of its parameters,
 * so that what a scanner changes is one value of an otherwise accepted request — the one that
 * reaches SQL — rather than a request refused at its first field.
 */

export type TargetKind = 'liste' | 'écriture' | 'identifiant';

export type Target = {
  key: string;
  kind: TargetKind;
  method: string;
  path: string;
  /** Path and query filled with example values (no scheme nor host). */
  url: string;
  body?: Record<string, unknown>;
  /** Every parameter the target declares, as `query search`, `path uuid`, `body firstName`. */
  parameters: string[];
  /**
   * A parameter whose schema only admits its own values (an enum, a format, a pattern, a number,
   * a boolean) → its schema: every other value is refused by validation before any SQL, so two
   * such parameters of one schema go through the same refusal. Free text is not listed.
   */
  constrained: Record<string, string>;
};

/** Real ids of the demo, by the name they answer to (a list's last path segment, `organization`, `environment`, `user`). */
export type KnownIds = Map<string, string[]>;

/** Operations the scan leaves out, with why: printed with the results, never dropped silently. */
export type Left = { key: string; reason: string };

/**
 * Password fields never carry the demo administrator's password: with it, a changed `newPassword`
 * would change the password and end the scan's own session, and a mutated login would lock it out.
 * Login-like bodies name an address of their own for the same reason. Both still reach SQL (the
 * account's lookup) before being refused.
 */
const WRONG_PASSWORD = 'Pas-le-bon-mot-de-passe-1';
const SCAN_EMAIL = 'scanner@exemple.fr';

function firstType(schema: OpenApiSchema): string | undefined {
  return ([] as string[]).concat(schema.type ?? [])[0];
}

/**
 * One valid value for a schema, deterministic (a scanner compares answers to one baseline): the
 * first enum value, the format's shape, a real id of the demo for a uuid when one is known, and
 * the field's name for what a free text holds (the same hints as the fuzz's plausible strings).
 */
export function exampleValue(schema: OpenApiSchema, name: string, ids: KnownIds, depth = 0): unknown {
  if (schema.anyOf ?? schema.oneOf) {
    const parts = (schema.anyOf ?? schema.oneOf)!;
    // A nullable field: its non-null part, so that the scanner has a value to change.
    return exampleValue(parts.find((part) => firstType(part) !== 'null') ?? parts[0]!, name, ids, depth);
  }
  if (schema.enum) return schema.enum[0];
  if (schema.const !== undefined) return schema.const;
  switch (firstType(schema)) {
    case 'integer':
    case 'number':
      return Math.max(schema.minimum ?? 1, schema.exclusiveMinimum !== undefined ? schema.exclusiveMinimum + 1 : 1);
    case 'boolean':
      return false;
    case 'array':
      return depth > 3 ? [] : Array.from({ length: Math.max(schema.minItems ?? 1, 1) }, () => exampleValue(schema.items ?? { type: 'string' }, name, ids, depth + 1));
    case 'object':
      return exampleObject(schema, ids, depth + 1);
    default:
      return exampleString(schema, name, ids);
  }
}

function exampleString(schema: OpenApiSchema, name: string, ids: KnownIds): string {
  if (schema.format === 'uuid') return idFor(name, ids);
  if (schema.format === 'date') return '2024-01-15';
  if (schema.format === 'date-time') return '2024-01-15T12:00:00Z';
  if (schema.format === 'email' || /e-?mail/i.test(name)) return SCAN_EMAIL;
  if (/password/i.test(name)) return WRONG_PASSWORD;
  if (/phone/i.test(name)) return '06 12 34 56 78';
  if (/url/i.test(name)) return 'https://exemple.fr';
  if (/immatriculation|plate/i.test(name)) return 'GC-950-SQ';
  if (/types/i.test(name)) return 'VP';
  if (schema.pattern && /\\w-\]\{8,64\}/.test(schema.pattern)) return 'version01';
  const text = 'Exemple';
  const min = schema.minLength ?? 0;
  const value = text.length >= min ? text : text.padEnd(min, 'x');
  return schema.maxLength !== undefined ? value.slice(0, schema.maxLength) : value;
}

/** Every property of the schema, required or not: each is a value the scanner tries. */
function exampleObject(schema: OpenApiSchema, ids: KnownIds, depth: number): Record<string, unknown> {
  return Object.fromEntries(Object.entries(schema.properties ?? {}).map(([key, property]) => [key, exampleValue(property, key, ids, depth)]));
}

/** A real id answering to this name (`vehicule`, `driver`, `organization`, …), otherwise a random one (404 path). */
function idFor(name: string, ids: KnownIds): string {
  const wanted = name.replace(/Uuid$|Id$/, '').toLowerCase();
  for (const [key, values] of ids) if (key.toLowerCase() === wanted || key.toLowerCase() === `${wanted}s`) return values[0]!;
  return randomUUID();
}

function queryString(values: Record<string, unknown>): string {
  const pairs = Object.entries(values).map(([key, value]) => `${key}=${encodeURIComponent(String(value))}`);
  return pairs.length > 0 ? `?${pairs.join('&')}` : '';
}

const parametersOf = (operation: OpenApiOperation, where: 'path' | 'query') => (operation.parameters ?? []).filter((p) => p.in === where);

/** Fills the path's parameters: a real id of the list the path starts with, else the parameter's own example. */
function fillPath(path: string, operation: OpenApiOperation, ids: KnownIds, listIds: Map<string, string[]>): string {
  let filled = path;
  for (const parameter of parametersOf(operation, 'path')) {
    const at = path.indexOf(`{${parameter.name}}`);
    const list = path.slice(0, at - 1);
    const fromList = parameter.schema.format === 'uuid' || !parameter.schema.enum ? listIds.get(list.replace(/\{[^}]+\}/g, '*'))?.[0] : undefined;
    const value = fromList ?? exampleValue(parameter.schema, /\/(\w[\w-]*)\/\{/.exec(path.slice(0, at + 1))?.[1] ?? parameter.name, ids);
    filled = filled.replace(`{${parameter.name}}`, encodeURIComponent(String(value)));
  }
  return filled;
}

export type Plan = { targets: Target[]; left: Left[] };

/**
 * The targets: every list (GET with query parameters), every write with a JSON body (POST, and
 * PUT/PATCH, which reach SQL the same way) and every read by id (GET with path parameters).
 * What is left out is said, with its reason.
 */
export function planTargets(ids: KnownIds, listIds: Map<string, string[]>): Plan {
  const targets: Target[] = [];
  const left: Left[] = [];
  for (const { method, path, operation } of openApiOperations()) {
    const key = `${method} ${path}`;
    const query = parametersOf(operation, 'query');
    const pathParameters = parametersOf(operation, 'path');
    const bodySchema = operation.requestBody?.content['application/json']?.schema;
    let kind: TargetKind | undefined;
    if (method === 'GET' && query.length > 0) kind = 'liste';
    else if (['POST', 'PUT', 'PATCH'].includes(method) && bodySchema) kind = 'écriture';
    else if (method === 'GET' && pathParameters.length > 0) kind = 'identifiant';
    if (!kind) {
      left.push({ key, reason: reasonLeft(method, operation) });
      continue;
    }
    const url = `${fillPath(path, operation, ids, listIds)}${queryString(Object.fromEntries(query.map((p) => [p.name, exampleValue(p.schema, p.name, ids)])))}`;
    const body = bodySchema ? exampleObject(bodySchema, ids, 0) : undefined;
    targets.push({
      key,
      kind,
      method,
      path,
      url,
      ...(body ? { body } : {}),
      parameters: [...pathParameters.map((p) => `path ${p.name}`), ...query.map((p) => `query ${p.name}`), ...Object.keys(body ?? {}).map((name) => `body ${name}`)],
      constrained: Object.fromEntries([
        ...[...pathParameters, ...query].flatMap((p) => (constrained(p.schema) ? [[`${p.in} ${p.name}`, constrained(p.schema)!]] : [])),
        ...Object.entries(bodySchema?.properties ?? {}).flatMap(([name, schema]) => (constrained(schema) ? [[`body ${name}`, constrained(schema)!]] : [])),
      ]),
    });
  }
  return { targets, left };
}

/** The schema of a parameter that admits only its own values, without its default; undefined for free text. */
function constrained(schema: OpenApiSchema): string | undefined {
  const type = firstType(schema);
  const free = type === 'string' && !schema.enum && !schema.format && !schema.pattern && schema.const === undefined;
  if (free || schema.anyOf || schema.oneOf || type === 'object' || type === 'array') return undefined;
  const { default: _default, ...rest } = schema as OpenApiSchema & { default?: unknown };
  return JSON.stringify(rest);
}

function reasonLeft(method: string, operation: OpenApiOperation): string {
  if (method === 'DELETE') return 'suppression : la première requête du scanner efface l’enregistrement que les suivantes comparent';
  if (operation.requestBody) return `corps ${Object.keys(operation.requestBody.content).join(', ')} (fichier) : hors JSON`;
  if ((operation.parameters ?? []).some((p) => p.in === 'path')) return 'action sans corps sur un identifiant (le chemin est scanné par la lecture de la même ressource)';
  return 'ni paramètre ni corps : rien à injecter';
}

/**
 * Real ids of the demo: every GET without path parameters is asked once (as the scan's user) and
 * the ids of its rows kept under its path; then the lists under an id (`/api/driver/{uuid}/documents`)
 * with the first id found. Plus the caller's own organization, environment and user.
 */
export async function collectIds(url: string, token: string): Promise<{ ids: KnownIds; listIds: Map<string, string[]> }> {
  const ids: KnownIds = new Map();
  const listIds = new Map<string, string[]>();
  const me = await api<{ uuid: string; currentOrganizationUser?: { uuid: string; organization?: { uuid: string; environment?: { uuid: string } } } }>(url, token, 'GET', '/auth/me');
  if (me.status !== 200) throw new Error(`/api/auth/me : ${me.status}`);
  ids.set('user', [me.body.uuid]);
  const organization = me.body.currentOrganizationUser?.organization;
  if (organization) ids.set('organization', [organization.uuid]);
  if (organization?.environment) ids.set('environment', [organization.environment.uuid]);
  const gets = openApiOperations().filter(({ method }) => method === 'GET');
  for (const depth of [0, 1]) {
    for (const { path, operation } of gets) {
      const pathParameters = parametersOf(operation, 'path');
      if (pathParameters.length !== depth || /export|download|preview|thumbnail|pack|pdf|avatar|logo/.test(path)) continue;
      const filled = depth === 0 ? path : fillPath(path, operation, ids, listIds);
      const answer = await api<unknown>(url, token, 'GET', `${filled.replace(/^\/api/, '')}?limit=5`).catch(() => undefined);
      if (!answer || answer.status !== 200) continue;
      const rows = Array.isArray(answer.body) ? answer.body : (answer.body as { data?: unknown })?.data;
      if (!Array.isArray(rows)) continue;
      // Not the scan's own membership: a changed role there would take the scan's rights away.
      const found = rows.flatMap((row) => {
        const id = (row as { uuid?: unknown; id?: unknown })?.uuid ?? (row as { id?: unknown })?.id;
        return typeof id === 'string' && id !== me.body.currentOrganizationUser?.uuid ? [id] : [];
      });
      if (found.length === 0) continue;
      listIds.set(path.replace(/\{[^}]+\}/g, '*'), found);
      const last = path.split('/').filter((segment) => segment && !segment.startsWith('{')).at(-1)!;
      if (!ids.has(last)) ids.set(last, found);
    }
  }
  return { ids, listIds };
}
