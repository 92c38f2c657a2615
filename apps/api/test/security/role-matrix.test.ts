import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { declaredRoutes, routeKey } from '../../src/plugins/route-access.js';
import { createDrivers, createSinisters, createUser, createVehicules, DEFAULT_TEST_PASSWORD, linkUser } from '../../src/seed/factories.js';
import { type EnvironmentFixtures, openEnvironments, UNKNOWN_UUID } from '../fixtures/environments.js';
import type { TestContext } from '../test-app.js';
import { CALLER_LABELS, CALLERS, type Caller, type MatrixIds, ROLE_MATRIX } from './role-matrix.js';

/**
 * Issue 20, point 3: every route (method and URL as registered) called by each caller of the
 * role × route table (role-matrix.ts), whose answer must be the cell's status exactly. A route the
 * app registers and the table does not name fails the file, as does a row for a route that no
 * longer exists. The cells must also agree with each route's declaration (decision 048): nobody
 * gets past a route's authentication without a session, and a caller holding none of the roles a
 * route declares never succeeds. The file prints what it tried and what held.
 *
 * The calls run in the table's order, anonymous → ROOT for each route, on the file's own database:
 * a write gives each caller a record of its own where two callers' writes would collide.
 */

const LONG = 180_000;
const LOGINS = { user: 'user-a', admin: 'admin-a', superadmin: 'super-a', otherSuperadmin: 'super-b', root: 'root' } as const;

let t: TestContext;
let f: EnvironmentFixtures;
let tokens: Record<string, string>;
let ids: MatrixIds;
/** The roles each caller works with (GET /api/auth/me), for the check against the declarations. */
const rolesOf: Partial<Record<Caller, readonly string[]>> = {};

function addressOf(caller: Caller) {
  // Each caller its own address: the limits per address (login, recovery, signup) count apart.
  return `10.20.0.${CALLERS.indexOf(caller) + 1}`;
}

async function call(caller: Caller, options: InjectOptions) {
  const headers = { ...options.headers, ...(caller === 'anonymous' ? {} : { authorization: `Bearer ${tokens[caller]}` }) };
  return t.app.inject({ ...options, headers, remoteAddress: addressOf(caller) });
}

async function login(caller: Exclude<Caller, 'anonymous'>) {
  const response = await t.app.inject({
    method: 'POST',
    url: '/api/auth/login',
    remoteAddress: '10.21.0.1',
    payload: { email: `${LOGINS[caller]}@exemple.fr`, password: DEFAULT_TEST_PASSWORD },
  });
  expect(response.statusCode, response.body).toBe(200);
  tokens[caller] = response.json<{ tokens: { access_token: string } }>().tokens.access_token;
}

/** A call that ended a caller's session (its sessions, its password): it signs in again, as a user would. */
async function keepSessions() {
  for (const caller of CALLERS) {
    if (caller === 'anonymous') continue;
    if ((await call(caller, { method: 'GET', url: '/api/auth/me' })).statusCode === 401) await login(caller);
  }
}

/** The caller's current organization becomes `linkUuid`'s (a superadmin or ROOT working in a client organization). */
async function workIn(caller: Caller, userUuid: string, linkUuid: string) {
  const response = await call(caller, { method: 'PATCH', url: `/api/user/${userUuid}`, payload: { currentOrganizationUser: linkUuid } });
  expect(response.statusCode, response.body).toBe(200);
}

beforeAll(async () => {
  ({ t, f, tokens } = await openEnvironments(['root', 'super-a', 'super-b', 'admin-a', 'user-a', 'user-b']));
  for (const caller of CALLERS) if (caller !== 'anonymous') tokens[caller] = tokens[LOGINS[caller]]!;
  const me = async (token: string) =>
    (await t.as(token, { method: 'GET', url: '/api/auth/me' })).json<{ uuid: string; roles: string[]; currentOrganizationUser: { uuid: string } | null }>();
  const adminA = await me(tokens.admin!);
  const userB = await me(tokens['user-b']!);
  const root = await me(tokens.root!);
  const superB = await me(tokens.otherSuperadmin!);
  // The brokers and the operator work in a client organization, as the organization switcher does:
  // environment A's superadmin and ROOT in « Étoile du Nord » (A), B's superadmin in its own client (B).
  await workIn('superadmin', f.superA.uuid, adminA.currentOrganizationUser!.uuid);
  await workIn('root', root.uuid, adminA.currentOrganizationUser!.uuid);
  await workIn('otherSuperadmin', superB.uuid, userB.currentOrganizationUser!.uuid);

  const orgA = f.orgA1.uuid;
  const own = await t.seed(async (tx) => {
    const perCaller = {} as Record<Caller, MatrixIds['own'][Caller]>;
    for (const caller of CALLERS) {
      const [driver] = await createDrivers(tx, orgA, [{ firstName: 'Témoin', lastName: caller }]);
      const [vehicule] = await createVehicules(tx, orgA, [{ immatriculation: `MR-${String(200 + CALLERS.indexOf(caller))}-MR` }]);
      const [sinister] = await createSinisters(tx, orgA, [{ vehiculeUuid: vehicule!.uuid, driverUuid: driver!.uuid }]);
      const member = await createUser(tx, { email: `membre-${caller.toLowerCase()}@exemple.fr` });
      const link = await linkUser(tx, orgA, member.uuid);
      perCaller[caller] = { driver: driver!.uuid, vehicule: vehicule!.uuid, sinister: sinister!.uuid, member: member.uuid, link: link.uuid };
    }
    return perCaller;
  });
  for (const caller of CALLERS) {
    if (caller === 'anonymous') continue;
    rolesOf[caller] = (await me(tokens[caller]!)).roles;
  }
  /** The first item of a list answer (an array, or a page's `data`). */
  const first = async <T,>(token: string, url: string) => {
    const body = (await t.as(token, { method: 'GET', url })).json<T[] | { data: T[] }>();
    return Array.isArray(body) ? body[0] : body.data[0];
  };
  const guarantee = (await first<{ uuid: string }>(tokens.root!, '/api/guarantees'))!.uuid;
  const tier = (await first<{ uuid: string }>(tokens.root!, `/api/environment/${f.envA.uuid}/tier`))!.uuid;
  const plan = (await first<{ id: string }>(tokens.admin!, '/api/stripe/plans'))?.id ?? 'offre-inconnue';
  const folder = (await t.as(tokens.admin!, { method: 'POST', url: '/api/document/folder', payload: { folderName: 'Dossier témoin' } })).json<{ uuid: string }>().uuid;
  const survey = (
    await t.as(tokens.superadmin!, {
      method: 'POST',
      url: '/api/survey',
      payload: { title: 'Questionnaire témoin', questions: [{ label: 'Satisfait ?', kind: 'single', required: true, choices: [{ label: 'Oui' }, { label: 'Non' }] }] },
    })
  ).json<{ uuid?: string }>().uuid;
  const alert = (
    await t.as(tokens.superadmin!, {
      method: 'POST',
      url: `/api/environment/${f.envA.uuid}/alert`,
      payload: { title: 'Verglas', body: 'Prudence sur les routes.', severity: 'information', target: { kind: 'all' } },
    })
  ).json<{ uuid?: string }>().uuid;
  const invitation = (
    await t.as(tokens.admin!, { method: 'POST', url: '/api/organization-invitation', payload: { email: 'invite-temoin@exemple.fr', role: 'USER' } })
  ).json<{ uuid?: string }>().uuid;
  ids = {
    envA: f.envA.uuid,
    envB: f.envB.uuid,
    orgA: orgA,
    orgA2: f.orgA2.uuid,
    superA: f.superA.uuid,
    guarantee,
    tier,
    plan,
    folder: folder ?? UNKNOWN_UUID,
    survey: survey ?? UNKNOWN_UUID,
    alert: alert ?? UNKNOWN_UUID,
    invitation: invitation ?? UNKNOWN_UUID,
    unknown: UNKNOWN_UUID,
    own,
    self: {
      anonymous: UNKNOWN_UUID,
      user: (await me(tokens.user!)).uuid,
      admin: adminA.uuid,
      superadmin: f.superA.uuid,
      otherSuperadmin: superB.uuid,
      root: root.uuid,
    },
  };
}, LONG);
afterAll(() => t?.close());

type Outcome = { key: string; caller: Caller; expected: number; got: number; message: string };

describe('role × route table (issue 20, point 3)', () => {
  it(
    'names every registered route, and no other',
    () => {
      const registered = new Set(declaredRoutes(t.app).map((route) => routeKey(route.method, route.url)));
      const missing = [...registered].filter((key) => !(key in ROLE_MATRIX));
      const stale = Object.keys(ROLE_MATRIX).filter((key) => !registered.has(key));
      process.stdout.write(`role matrix: ${registered.size} routes registered (a HEAD counted with its GET), ${Object.keys(ROLE_MATRIX).length} rows in the table\n`);
      expect(missing, 'routes without a row in test/security/role-matrix.ts').toEqual([]);
      expect(stale, 'rows of test/security/role-matrix.ts for routes that do not exist').toEqual([]);
    },
    LONG,
  );

  it(
    'answers each cell with its status',
    async () => {
      const declared = new Map(declaredRoutes(t.app).map((route) => [routeKey(route.method, route.url), route.access]));
      const outcomes: Outcome[] = [];
      for (const [key, row] of Object.entries(ROLE_MATRIX)) {
        const [method, url] = key.split(' ') as [InjectOptions['method'], string];
        for (const [index, caller] of CALLERS.entries()) {
          const request = row.request?.(ids, caller) ?? {};
          const response = await call(caller, { method, url: request.url ?? url, payload: request.payload as InjectOptions['payload'], headers: request.headers });
          const message = response.statusCode >= 400 ? String(response.json<{ message?: string }>().message ?? '') : '';
          outcomes.push({ key, caller, expected: row.expect[index]!, got: response.statusCode, message });
        }
        if (row.endsSessions) await keepSessions();
      }
      printSummary(outcomes);
      const wrong = outcomes.filter((o) => o.got !== o.expected).map((o) => `${o.key} as ${CALLER_LABELS[o.caller]}: expected ${o.expected}, got ${o.got} ${o.message}`);
      expect(wrong, 'cells whose answer is not the table’s').toEqual([]);

      // The table agrees with the routes' declarations (plugins/route-access.ts).
      const disagreements: string[] = [];
      for (const [key, row] of Object.entries(ROLE_MATRIX)) {
        const access = declared.get(key)!;
        if (access.roles === 'public') {
          // A public route answers the same with a session or without: it does not read one.
          if (row.expect.some((status) => status !== row.expect[0])) disagreements.push(`${key}: public, yet a session changes its answer`);
          continue;
        }
        if (row.expect[0] !== 401) disagreements.push(`${key}: declared for roles, yet ${row.expect[0]} without a session`);
        for (const [index, caller] of CALLERS.entries()) {
          if (caller === 'anonymous') continue;
          const holds = rolesOf[caller]!.some((role) => (access.roles as readonly string[]).includes(role));
          if (!holds && row.expect[index]! < 400) disagreements.push(`${key}: ${CALLER_LABELS[caller]} holds none of ${access.roles.join(', ')}, yet ${row.expect[index]}`);
        }
      }
      expect(disagreements, 'cells that contradict the routes’ declared roles').toEqual([]);
    },
    LONG,
  );
});

function printSummary(outcomes: Outcome[]) {
  const lines = CALLERS.map((caller) => {
    const mine = outcomes.filter((o) => o.caller === caller);
    const held = mine.filter((o) => o.got === o.expected).length;
    const byStatus = new Map<string, number>();
    for (const o of mine) {
      const bucket = o.got < 300 ? '2xx' : String(o.got);
      byStatus.set(bucket, (byStatus.get(bucket) ?? 0) + 1);
    }
    const statuses = [...byStatus.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([status, n]) => `${status}×${n}`);
    return `  ${CALLER_LABELS[caller].padEnd(34)} ${held}/${mine.length} held   ${statuses.join(' ')}`;
  });
  const held = outcomes.filter((o) => o.got === o.expected).length;
  const roles = CALLERS.filter((caller) => caller !== 'anonymous').map((caller) => `${CALLER_LABELS[caller]}: ${rolesOf[caller]!.join('+')}`);
  process.stdout.write(`role matrix: ${outcomes.length} calls (${outcomes.length / CALLERS.length} routes × ${CALLERS.length} callers), ${held} held (roles worked with: ${roles.join(', ')})\n${lines.join('\n')}\n`);
}
