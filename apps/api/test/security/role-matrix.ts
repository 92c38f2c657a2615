import { ACCOUNT_DELETION_WORD, CGU_VERSION, CSRF_HEADER, CSRF_HEADER_VALUE } from '@flotte/contract';

/**
 * The role × route table (issue 20, point 3): for every route, as Fastify registers it (a HEAD is
 * its GET's), the status each caller gets, exactly. role-matrix.test.ts calls every cell and fails
 * when a registered route has no row here, so a new route comes with its row.
 *
 * Callers, in the order of `expect`:
 * - anonymous: no session;
 * - USER: « user-a », a plain member of « Étoile du Nord » (environment A);
 * - ADMIN: « admin-a », its administrator;
 * - SUPERADMIN: « super-a », superadmin of environment A, working in « Étoile du Nord »;
 * - SUPERADMIN of another environment: « super-b » (environment B), working in its client « Logistique Bêta »;
 * - ROOT: the platform's operator, working in « Étoile du Nord ».
 * The ids are the fixtures' (test/fixtures/environments.ts): environment A, its organization, and a
 * driver, vehicle, claim and member of « Étoile du Nord » for each caller, so that one caller's
 * write is not the next one's 404. `unknown` is an id nobody has: where a route may succeed for a
 * role, a 404 there still shows the role got past the route's gate (a refused role gets 403).
 * Bodies are valid where the role decides; a 400 for every signed-in caller means the body is
 * checked before anything else (then the row shows authentication only).
 */

export const CALLERS = ['anonymous', 'user', 'admin', 'superadmin', 'otherSuperadmin', 'root'] as const;
export type Caller = (typeof CALLERS)[number];
export const CALLER_LABELS: Record<Caller, string> = {
  anonymous: 'anonymous',
  user: 'USER',
  admin: 'ADMIN',
  superadmin: 'SUPERADMIN of the environment',
  otherSuperadmin: 'SUPERADMIN of another environment',
  root: 'ROOT',
};

export type MatrixIds = {
  envA: string;
  envB: string;
  orgA: string;
  orgA2: string;
  superA: string;
  guarantee: string;
  tier: string;
  plan: string;
  folder: string;
  survey: string;
  alert: string;
  invitation: string;
  unknown: string;
  /** Each caller's own records in « Étoile du Nord ». */
  own: Record<Caller, { driver: string; vehicule: string; sinister: string; member: string; link: string }>;
  /** Each caller's own user id (anonymous: an unknown one). */
  self: Record<Caller, string>;
};

type Status = number;
export type MatrixRow = {
  /** What is sent besides the route's method and URL (default: the URL as registered, no body). */
  request?: (ids: MatrixIds, caller: Caller) => { url?: string; payload?: unknown; headers?: Record<string, string> };
  /** The call ends the caller's sessions: the callers sign in again after it. */
  endsSessions?: true;
  /** anonymous, USER, ADMIN, SUPERADMIN of the environment, SUPERADMIN of another environment, ROOT. */
  expect: readonly [Status, Status, Status, Status, Status, Status];
};

/** A well-formed token that no link holds. */
const TOKEN = 'matrice-des-roles-jeton-inconnu-0123456789ab';
/** A version no image has. */
const VERSION = 'v0000000000';
/** The custom header of the session cookie's calls (decision 003). */
const SAME_SITE = { [CSRF_HEADER]: CSRF_HEADER_VALUE };

export const ROLE_MATRIX: Readonly<Record<string, MatrixRow>> = {
  'GET /api/health': { expect: [200, 200, 200, 200, 200, 200] },
  'GET /api/ready': { expect: [200, 200, 200, 200, 200, 200] },
  'POST /api/auth/login': { request: () => ({ payload: { email: 'personne@exemple.fr', password: 'pas-le-bon-mot-de-passe' } }), expect: [401, 401, 401, 401, 401, 401] },
  'POST /api/auth/login/totp/setup': { request: () => ({ payload: { challenge: TOKEN } }), expect: [401, 401, 401, 401, 401, 401] },
  'POST /api/auth/login/totp': { request: () => ({ payload: { challenge: TOKEN, code: '123456' } }), expect: [401, 401, 401, 401, 401, 401] },
  'POST /api/auth/refresh-token': { request: () => ({ headers: SAME_SITE }), expect: [401, 401, 401, 401, 401, 401] },
  'POST /api/auth/logout': { request: () => ({ headers: SAME_SITE }), expect: [204, 204, 204, 204, 204, 204] },
  'POST /api/auth/recover': { request: (_i, c) => ({ payload: { email: `perdu-${c.toLowerCase()}@exemple.fr` } }), expect: [202, 202, 202, 202, 202, 202] },
  'POST /api/auth/recover/check': { request: () => ({ payload: { token: TOKEN } }), expect: [400, 400, 400, 400, 400, 400] },
  'POST /api/auth/recover/password': { request: () => ({ payload: { token: TOKEN, password: 'Un-nouveau-mot-de-passe-1', confirmation: 'Un-nouveau-mot-de-passe-1' } }), expect: [400, 400, 400, 400, 400, 400] },
  'GET /api/auth/totp': { expect: [401, 200, 200, 200, 200, 200] },
  'POST /api/auth/totp/setup': { expect: [401, 200, 200, 200, 200, 200] },
  'POST /api/auth/totp/enable': { request: () => ({ payload: { code: '123456' } }), expect: [401, 400, 400, 400, 400, 400] },
  'POST /api/auth/totp/recovery-codes': { request: () => ({ payload: { code: '123456' } }), expect: [401, 400, 400, 400, 400, 400] },
  'POST /api/auth/totp/disable': { request: () => ({ payload: { password: 'pas-le-bon-mot-de-passe' } }), expect: [401, 400, 400, 400, 400, 400] },
  'GET /api/auth/me': { expect: [401, 200, 200, 200, 200, 200] },
  'POST /api/auth/password': { request: () => ({ headers: SAME_SITE, payload: { currentPassword: 'pas-le-bon-mot-de-passe', newPassword: 'Un-nouveau-mot-de-passe-1' } }), expect: [401, 400, 400, 400, 400, 400] },
  'GET /api/user/:uuid/avatar/:version': { request: (i) => ({ url: `/api/user/${i.superA}/avatar/${VERSION}` }), expect: [404, 404, 404, 404, 404, 404] },
  'GET /api/organization/:uuid/logo/:version': { request: (i) => ({ url: `/api/organization/${i.orgA}/logo/${VERSION}` }), expect: [404, 404, 404, 404, 404, 404] },
  'GET /api/environment/:uuid/logo/:version': { request: (i) => ({ url: `/api/environment/${i.envA}/logo/${VERSION}` }), expect: [404, 404, 404, 404, 404, 404] },
  'POST /api/auth/signup': { request: (_i, c) => ({ payload: { firstName: 'Nina', lastName: 'Nouvelle', email: `inscrite-${c.toLowerCase()}@exemple.fr`, password: 'Un-mot-de-passe-solide-1', cguVersion: CGU_VERSION } }), expect: [202, 202, 202, 202, 202, 202] },
  'POST /api/auth/signup/resend': { request: (_i, c) => ({ payload: { email: `en-attente-${c.toLowerCase()}@exemple.fr` } }), expect: [202, 202, 202, 202, 202, 202] },
  'POST /api/auth/signup/confirm': { request: () => ({ payload: { token: TOKEN } }), expect: [400, 400, 400, 400, 400, 400] },
  'POST /api/survey-response/open': { request: () => ({ payload: { token: TOKEN } }), expect: [404, 404, 404, 404, 404, 404] },
  'POST /api/survey-response': { request: () => ({ payload: { token: TOKEN, answers: [] } }), expect: [404, 404, 404, 404, 404, 404] },
  'POST /api/stripe/webhook': { request: () => ({ headers: { 'content-type': 'application/json', 'stripe-signature': 't=1,v1=0' }, payload: '{}' }), expect: [404, 404, 404, 404, 404, 404] },
  'PATCH /api/user/:uuid': { request: (i, c) => ({ url: `/api/user/${i.self[c]}`, payload: { description: 'Vu par la matrice des rôles' } }), expect: [401, 200, 200, 200, 200, 200] },
  'POST /api/user/cgu': { request: () => ({ payload: { version: CGU_VERSION } }), expect: [401, 200, 200, 200, 200, 200] },
  'GET /api/auth/sessions': { expect: [401, 200, 200, 200, 200, 200] },
  'DELETE /api/auth/sessions/:uuid': { request: (i) => ({ url: `/api/auth/sessions/${i.unknown}` }), expect: [401, 404, 404, 404, 404, 404] },
  'DELETE /api/auth/sessions': { endsSessions: true, expect: [401, 204, 204, 204, 204, 204] },
  'POST /api/user/avatar': { expect: [401, 400, 400, 400, 400, 400] },
  'DELETE /api/user/avatar': { expect: [401, 200, 200, 200, 200, 200] },
  'POST /api/user/email': { request: () => ({ payload: { newEmail: 'ailleurs@exemple.fr', currentPassword: 'pas-le-bon-mot-de-passe' } }), expect: [401, 400, 400, 400, 400, 400] },
  'POST /api/user/email/confirm': { request: () => ({ payload: { token: TOKEN } }), expect: [401, 400, 400, 400, 400, 400] },
  'GET /api/user/organizations': { expect: [401, 200, 200, 200, 200, 200] },
  'DELETE /api/user/:uuid': { request: (i, c) => ({ url: `/api/user/${i.self[c]}`, payload: { currentPassword: 'pas-le-bon-mot-de-passe', confirmation: ACCOUNT_DELETION_WORD } }), expect: [401, 400, 400, 400, 400, 400] },
  'GET /api/organization': { expect: [401, 200, 200, 200, 200, 200] },
  'GET /api/organization/environment': { expect: [401, 200, 200, 200, 200, 200] },
  'GET /api/organization/:uuid/export': { request: (i) => ({ url: `/api/organization/${i.orgA}/export` }), expect: [401, 403, 200, 200, 404, 200] },
  'GET /api/organization-user': { request: (i) => ({ url: `/api/organization-user?organization=${i.orgA}` }), expect: [401, 200, 200, 200, 404, 200] },
  'POST /api/organization-user': { request: (i, c) => ({ payload: { user: i.own[c].member, organization: i.orgA2 } }), expect: [401, 404, 404, 201, 404, 201] },
  'PATCH /api/organization-user/:id': { request: (i, c) => ({ url: `/api/organization-user/${i.own[c].link}`, payload: { role: 'ADMIN' } }), expect: [401, 403, 200, 200, 404, 200] },
  'DELETE /api/organization-user/:id/two-factor': { request: (i, c) => ({ url: `/api/organization-user/${i.own[c].link}/two-factor` }), expect: [401, 403, 403, 409, 404, 409] },
  'DELETE /api/organization-user/:id': { request: (i, c) => ({ url: `/api/organization-user/${i.own[c].link}` }), expect: [401, 403, 204, 204, 404, 204] },
  'GET /api/root/spaces': { expect: [401, 404, 404, 404, 404, 200] },
  'GET /api/environment/:uuid/tier': { request: (i) => ({ url: `/api/environment/${i.envA}/tier` }), expect: [401, 404, 404, 404, 404, 200] },
  'POST /api/environment/:uuid/tier': { request: (i, c) => ({ url: `/api/environment/${i.envA}/tier`, payload: { title: `Palier ${c}`, startDate: `2030-0${CALLERS.indexOf(c) + 1}-01`, priceCents: 900 } }), expect: [401, 404, 404, 404, 404, 201] },
  'PATCH /api/environment/:uuid/tier/:tierUuid': { request: (i) => ({ url: `/api/environment/${i.envA}/tier/${i.tier}`, payload: { priceCents: 1000 } }), expect: [401, 404, 404, 404, 404, 200] },
  'DELETE /api/environment/:uuid/tier/:tierUuid': { request: (i) => ({ url: `/api/environment/${i.envA}/tier/${i.tier}` }), expect: [401, 404, 404, 404, 404, 204] },
  'GET /api/environment': { expect: [401, 200, 200, 200, 200, 200] },
  'GET /api/environment/current': { expect: [401, 200, 200, 200, 200, 200] },
  'GET /api/environment/:uuid': { request: (i) => ({ url: `/api/environment/${i.envA}` }), expect: [401, 404, 404, 200, 404, 200] },
  'POST /api/environment': { request: (_i, c) => ({ payload: { title: `Espace de ${c}` } }), expect: [401, 403, 403, 403, 403, 201] },
  'PATCH /api/environment/:uuid': { request: (i) => ({ url: `/api/environment/${i.envA}`, payload: { bookingUrl: 'https://rdv.horizon.fr/matrice' } }), expect: [401, 403, 403, 200, 404, 200] },
  'GET /api/environment-user/:environmentUuid/superadmin': { request: (i) => ({ url: `/api/environment-user/${i.envA}/superadmin` }), expect: [401, 200, 200, 200, 404, 200] },
  'GET /api/broker/organization': { expect: [401, 403, 403, 200, 200, 404] },
  'GET /api/broker/organization/export': { request: () => ({ url: '/api/broker/organization/export?format=csv' }), expect: [401, 403, 403, 200, 200, 404] },
  'POST /api/broker/organization': { request: (i, c) => ({ payload: { title: `Client de ${c}`, environment: i.envA } }), expect: [401, 403, 403, 201, 404, 201] },
  'POST /api/organization/:uuid/logo': { request: (i) => ({ url: `/api/organization/${i.orgA}/logo` }), expect: [401, 400, 400, 400, 400, 400] },
  'DELETE /api/organization/:uuid/logo': { request: (i) => ({ url: `/api/organization/${i.orgA}/logo` }), expect: [401, 403, 200, 200, 404, 200] },
  'POST /api/environment/:uuid/logo': { request: (i) => ({ url: `/api/environment/${i.envA}/logo` }), expect: [401, 400, 400, 400, 400, 400] },
  'DELETE /api/environment/:uuid/logo': { request: (i) => ({ url: `/api/environment/${i.envA}/logo` }), expect: [401, 404, 404, 200, 404, 200] },
  'POST /api/report': { request: () => ({ payload: { title: 'Un souci', description: 'Vu par la matrice des rôles', type: 'bug' } }), expect: [401, 201, 201, 201, 201, 201] },
  'GET /api/driver': { expect: [401, 200, 200, 200, 200, 200] },
  'GET /api/driver/choices': { expect: [401, 200, 200, 200, 200, 200] },
  'GET /api/driver/export': { request: () => ({ url: '/api/driver/export?format=csv' }), expect: [401, 200, 200, 200, 200, 200] },
  'GET /api/driver/:uuid': { request: (i, c) => ({ url: `/api/driver/${i.own[c].driver}` }), expect: [401, 200, 200, 200, 404, 200] },
  'POST /api/driver': { request: (_i, c) => ({ payload: { firstName: 'Créé', lastName: `Par ${c}` } }), expect: [401, 201, 201, 201, 201, 201] },
  'PATCH /api/driver/:uuid': { request: (i, c) => ({ url: `/api/driver/${i.own[c].driver}`, payload: { phone: '06 12 34 56 78' } }), expect: [401, 200, 200, 200, 404, 200] },
  'DELETE /api/driver/:uuid': { request: (i, c) => ({ url: `/api/driver/${i.own[c].driver}` }), expect: [401, 200, 200, 200, 404, 200] },
  'POST /api/driver/restore/:uuid': { request: (i, c) => ({ url: `/api/driver/restore/${i.own[c].driver}` }), expect: [401, 200, 200, 200, 404, 200] },
  'GET /api/vehicule': { expect: [401, 200, 200, 200, 200, 200] },
  'GET /api/vehicule/choices': { expect: [401, 200, 200, 200, 200, 200] },
  'GET /api/vehicule/export': { request: () => ({ url: '/api/vehicule/export?format=csv' }), expect: [401, 200, 200, 200, 200, 200] },
  'GET /api/vehicule/:uuid': { request: (i, c) => ({ url: `/api/vehicule/${i.own[c].vehicule}` }), expect: [401, 200, 200, 200, 404, 200] },
  'POST /api/vehicule': { request: (_i, c) => ({ payload: { brand: 'Renault', model: 'Kangoo', type: 'VUL', immatriculation: `MX-${String(100 + CALLERS.indexOf(c))}-RM` } }), expect: [401, 201, 201, 201, 201, 201] },
  'PATCH /api/vehicule/:uuid': { request: (i, c) => ({ url: `/api/vehicule/${i.own[c].vehicule}`, payload: { model: 'Trafic' } }), expect: [401, 200, 200, 200, 404, 200] },
  'DELETE /api/vehicule/:uuid': { request: (i, c) => ({ url: `/api/vehicule/${i.own[c].vehicule}` }), expect: [401, 200, 200, 200, 404, 200] },
  'POST /api/vehicule/restore/:uuid': { request: (i, c) => ({ url: `/api/vehicule/restore/${i.own[c].vehicule}` }), expect: [401, 200, 200, 200, 404, 200] },
  'POST /api/vehicule/create-empty': { expect: [401, 201, 201, 201, 201, 201] },
  'PATCH /api/vehicule/category/:id': { request: () => ({ url: '/api/vehicule/category/VUL' }), expect: [401, 200, 200, 200, 200, 200] },
  'GET /api/guarantees': { expect: [401, 200, 200, 200, 200, 200] },
  'POST /api/guarantees': { request: (_i, c) => ({ payload: { label: `Garantie de ${c}` } }), expect: [401, 403, 403, 403, 403, 201] },
  'PATCH /api/guarantees/:uuid': { request: (i, c) => ({ url: `/api/guarantees/${i.guarantee}`, payload: { label: `Garantie renommée par ${c}` } }), expect: [401, 403, 403, 403, 403, 200] },
  'GET /api/sinister': { expect: [401, 200, 200, 200, 200, 200] },
  'GET /api/sinister/export': { request: () => ({ url: '/api/sinister/export?format=csv' }), expect: [401, 200, 200, 200, 200, 200] },
  'GET /api/sinister/:id': { request: (i, c) => ({ url: `/api/sinister/${i.own[c].sinister}` }), expect: [401, 200, 200, 200, 404, 200] },
  'GET /api/sinister/:uuid/pack': { request: (i, c) => ({ url: `/api/sinister/${i.own[c].sinister}/pack` }), expect: [401, 200, 200, 200, 404, 200] },
  'POST /api/sinister': { request: (i, c) => ({ payload: { vehicule: i.own[c].vehicule, sinisterDate: '2026-01-15' } }), expect: [401, 201, 201, 201, 400, 201] },
  'PATCH /api/sinister/:uuid': { request: (i, c) => ({ url: `/api/sinister/${i.own[c].sinister}`, payload: { description: 'Vu par la matrice des rôles' } }), expect: [401, 200, 200, 200, 404, 200] },
  'DELETE /api/sinister/:uuid': { request: (i, c) => ({ url: `/api/sinister/${i.own[c].sinister}` }), expect: [401, 200, 200, 200, 404, 200] },
  'POST /api/sinister/restore/:uuid': { request: (i, c) => ({ url: `/api/sinister/restore/${i.own[c].sinister}` }), expect: [401, 200, 200, 200, 404, 200] },
  'GET /api/indicators': { expect: [401, 200, 200, 200, 200, 200] },
  'GET /api/indicators/current': { expect: [401, 200, 200, 200, 200, 200] },
  'POST /api/indicators': { request: (_i, c) => ({ payload: { currentIndicators: [{ startDate: `${2010 + CALLERS.indexOf(c)}-01-01`, endDate: `${2010 + CALLERS.indexOf(c)}-12-31`, motorsCount: 10, cashReceived: 12000 }] } }), expect: [401, 403, 200, 200, 200, 200] },
  'DELETE /api/indicators/:id': { request: (i) => ({ url: `/api/indicators/${i.unknown}` }), expect: [401, 403, 404, 404, 404, 404] },
  'GET /api/dashboard/loss-ratio': { expect: [401, 200, 200, 200, 200, 200] },
  'GET /api/dashboard/claims-by-month': { expect: [401, 200, 200, 200, 200, 200] },
  'GET /api/dashboard/claims-by-guarantee': { expect: [401, 200, 200, 200, 200, 200] },
  'GET /api/dashboard/claims-by-responsibility': { expect: [401, 200, 200, 200, 200, 200] },
  'GET /api/dashboard/claims-by-category': { expect: [401, 200, 200, 200, 200, 200] },
  'GET /api/dashboard/top-drivers': { expect: [401, 200, 200, 200, 200, 200] },
  'GET /api/dashboard/fleet-size': { expect: [401, 200, 200, 200, 200, 200] },
  'GET /api/dashboard/claim-frequency': { expect: [401, 404, 404, 404, 404, 404] },
  'GET /api/dashboard/half-differences': { expect: [401, 200, 200, 200, 200, 200] },
  'GET /api/dashboard/current-half-difference': { expect: [401, 200, 200, 200, 200, 200] },
  'GET /api/dashboard/config': { expect: [401, 200, 200, 200, 200, 200] },
  'PUT /api/dashboard/config': { request: () => ({ payload: { lossRatioPercentage: 70, claimFrequencyPercentage: 30 } }), expect: [401, 403, 200, 200, 200, 200] },
  'GET /api/dashboard/renewal-report': { expect: [401, 200, 200, 200, 200, 200] },
  'GET /api/contract': { expect: [401, 200, 200, 200, 200, 200] },
  'POST /api/contract/create-or-update': { request: (i) => ({ payload: { insurer: 'Assur Plus', policyNumber: 'POL-1', startDate: '2026-01-01', renewalDate: '2027-01-01', annualPremium: 5000, guarantees: [{ guaranteeUuid: i.guarantee, deductible: 300 }] } }), expect: [401, 403, 201, 200, 201, 200] },
  'GET /api/insurance-intermediary': { expect: [401, 200, 200, 200, 200, 200] },
  'GET /api/insurance-intermediary/current': { expect: [401, 200, 200, 200, 200, 200] },
  'POST /api/insurance-intermediary': { request: () => ({ payload: { name: 'Courtier Témoin', contactLastName: 'Martin', contactFirstName: 'Léa', email: 'lea@exemple.fr', productionEmail: 'production@exemple.fr' } }), expect: [401, 403, 201, 201, 201, 201] },
  'POST /api/import/:entity/preview': { request: () => ({ url: '/api/import/driver/preview' }), expect: [401, 400, 400, 400, 400, 400] },
  'POST /api/import/:importId/validate': { request: (i) => ({ url: `/api/import/${i.unknown}/validate`, payload: { mapping: {} } }), expect: [401, 404, 404, 404, 404, 404] },
  'GET /api/import/:importId/errors': { request: (i) => ({ url: `/api/import/${i.unknown}/errors` }), expect: [401, 404, 404, 404, 404, 404] },
  'POST /api/import/:importId/commit': { request: (i) => ({ url: `/api/import/${i.unknown}/commit`, payload: { mapping: {} } }), expect: [401, 404, 404, 404, 404, 404] },
  'POST /api/import/:importId/revert': { request: (i) => ({ url: `/api/import/${i.unknown}/revert` }), expect: [401, 404, 404, 404, 404, 404] },
  'GET /api/import': { expect: [401, 200, 200, 200, 200, 200] },
  'GET /api/import/:importId': { request: (i) => ({ url: `/api/import/${i.unknown}` }), expect: [401, 404, 404, 404, 404, 404] },
  'GET /api/driver/:uuid/documents': { request: (i, c) => ({ url: `/api/driver/${i.own[c].driver}/documents` }), expect: [401, 200, 200, 200, 404, 200] },
  'POST /api/driver/:uuid/documents': { request: (i, c) => ({ url: `/api/driver/${i.own[c].driver}/documents` }), expect: [401, 400, 400, 400, 400, 400] },
  'DELETE /api/driver/:uuid/documents/:documentUuid': { request: (i, c) => ({ url: `/api/driver/${i.own[c].driver}/documents/${i.unknown}` }), expect: [401, 404, 404, 404, 404, 404] },
  'GET /api/vehicule/:uuid/documents': { request: (i, c) => ({ url: `/api/vehicule/${i.own[c].vehicule}/documents` }), expect: [401, 200, 200, 200, 404, 200] },
  'POST /api/vehicule/:uuid/documents': { request: (i, c) => ({ url: `/api/vehicule/${i.own[c].vehicule}/documents` }), expect: [401, 400, 400, 400, 400, 400] },
  'DELETE /api/vehicule/:uuid/documents/:documentUuid': { request: (i, c) => ({ url: `/api/vehicule/${i.own[c].vehicule}/documents/${i.unknown}` }), expect: [401, 404, 404, 404, 404, 404] },
  'GET /api/sinister/:uuid/documents': { request: (i, c) => ({ url: `/api/sinister/${i.own[c].sinister}/documents` }), expect: [401, 200, 200, 200, 404, 200] },
  'POST /api/sinister/:uuid/documents': { request: (i, c) => ({ url: `/api/sinister/${i.own[c].sinister}/documents` }), expect: [401, 400, 400, 400, 400, 400] },
  'DELETE /api/sinister/:uuid/documents/:documentUuid': { request: (i, c) => ({ url: `/api/sinister/${i.own[c].sinister}/documents/${i.unknown}` }), expect: [401, 404, 404, 404, 404, 404] },
  'DELETE /api/sinister/:uuid/hard': { request: (i, c) => ({ url: `/api/sinister/${i.own[c].sinister}/hard` }), expect: [401, 403, 204, 204, 404, 204] },
  'DELETE /api/driver/:uuid/hard': { request: (i, c) => ({ url: `/api/driver/${i.own[c].driver}/hard` }), expect: [401, 403, 204, 204, 404, 204] },
  'DELETE /api/vehicule/:uuid/hard': { request: (i, c) => ({ url: `/api/vehicule/${i.own[c].vehicule}/hard` }), expect: [401, 403, 204, 204, 404, 204] },
  'POST /api/document/folder': { request: (_i, c) => ({ payload: { folderName: `Dossier de ${c}` } }), expect: [401, 201, 201, 201, 201, 201] },
  'GET /api/document/ged/paginated': { expect: [401, 200, 200, 200, 200, 200] },
  'GET /api/document/expiring': { expect: [401, 200, 200, 200, 200, 200] },
  'GET /api/document/media': { expect: [401, 200, 200, 200, 200, 200] },
  'GET /api/document/ancestors/:parent': { request: (i) => ({ url: `/api/document/ancestors/${i.folder}` }), expect: [401, 200, 200, 200, 404, 200] },
  'POST /api/document/upload': { expect: [401, 400, 400, 400, 400, 400] },
  'PATCH /api/document/:uuid': { request: (i) => ({ url: `/api/document/${i.folder}`, payload: { expiresOn: null } }), expect: [401, 200, 200, 200, 404, 200] },
  'DELETE /api/document/:uuid': { request: (i) => ({ url: `/api/document/${i.unknown}` }), expect: [401, 404, 404, 404, 404, 404] },
  'GET /api/document/trash': { expect: [401, 200, 200, 200, 200, 200] },
  'POST /api/document/:uuid/restore': { request: (i) => ({ url: `/api/document/${i.unknown}/restore` }), expect: [401, 404, 404, 404, 404, 404] },
  'DELETE /api/document/:uuid/permanent': { request: (i) => ({ url: `/api/document/${i.unknown}/permanent` }), expect: [401, 403, 404, 404, 404, 404] },
  'GET /api/document/:uuid/download': { request: (i) => ({ url: `/api/document/${i.folder}/download` }), expect: [401, 404, 404, 404, 404, 404] },
  'GET /api/document/:uuid/preview': { request: (i) => ({ url: `/api/document/${i.folder}/preview` }), expect: [401, 404, 404, 404, 404, 404] },
  'GET /api/document/:uuid/thumbnail': { request: (i) => ({ url: `/api/document/${i.folder}/thumbnail` }), expect: [401, 404, 404, 404, 404, 404] },
  'GET /api/onboarding': { expect: [401, 200, 200, 200, 200, 200] },
  'PUT /api/onboarding/step': { request: () => ({ payload: { step: 'done' } }), expect: [401, 200, 200, 409, 409, 409] },
  'POST /api/onboarding/company': { request: () => ({ payload: { title: 'Entreprise Témoin', address: '1 rue de la Paix, Paris', fleetSize: '1-9', companyId: '73282932000074' } }), expect: [401, 409, 409, 409, 409, 409] },
  'GET /api/alert': { expect: [401, 200, 200, 200, 200, 200] },
  'GET /api/alert/unread-count': { expect: [401, 200, 200, 200, 200, 200] },
  'POST /api/alert/read-all': { expect: [401, 200, 200, 200, 200, 200] },
  'POST /api/alert/:uuid/read': { request: (i) => ({ url: `/api/alert/${i.unknown}/read` }), expect: [401, 404, 404, 404, 404, 404] },
  'GET /api/environment/:uuid/alert': { request: (i) => ({ url: `/api/environment/${i.envA}/alert` }), expect: [401, 403, 403, 200, 404, 200] },
  'POST /api/environment/:uuid/alert': { request: (i, c) => ({ url: `/api/environment/${i.envA}/alert`, payload: { title: `Alerte de ${c}`, body: 'Prudence.', severity: 'information', target: { kind: 'all' } } }), expect: [401, 403, 403, 201, 404, 201] },
  'GET /api/environment/:uuid/alert/:alertUuid': { request: (i) => ({ url: `/api/environment/${i.envA}/alert/${i.alert}` }), expect: [401, 403, 403, 200, 404, 200] },
  'DELETE /api/environment/:uuid/alert/:alertUuid': { request: (i) => ({ url: `/api/environment/${i.envA}/alert/${i.unknown}` }), expect: [401, 403, 403, 404, 404, 404] },
  'GET /api/environment/:uuid/alert-digest': { request: (i) => ({ url: `/api/environment/${i.envA}/alert-digest` }), expect: [401, 403, 403, 200, 404, 404] },
  'PUT /api/environment/:uuid/alert-digest': { request: (i) => ({ url: `/api/environment/${i.envA}/alert-digest`, payload: { enabled: true } }), expect: [401, 403, 403, 200, 404, 404] },
  'GET /api/survey': { expect: [401, 403, 403, 200, 200, 200] },
  'POST /api/survey': { request: (i, c) => ({ payload: { title: `Questionnaire de ${c}`, questions: [{ kind: 'text', label: 'Un mot ?' }], environment: i.envA } }), expect: [401, 403, 403, 201, 404, 201] },
  'GET /api/survey/:uuid': { request: (i) => ({ url: `/api/survey/${i.survey}` }), expect: [401, 403, 403, 200, 404, 200] },
  'PATCH /api/survey/:uuid': { request: (i) => ({ url: `/api/survey/${i.survey}`, payload: { title: 'Questionnaire témoin', questions: [{ kind: 'text', label: 'Un mot ?' }] } }), expect: [401, 403, 403, 200, 404, 200] },
  'GET /api/survey/:uuid/audience': { request: (i) => ({ url: `/api/survey/${i.survey}/audience` }), expect: [401, 403, 403, 200, 404, 200] },
  'GET /api/survey/:uuid/results': { request: (i) => ({ url: `/api/survey/${i.survey}/results` }), expect: [401, 403, 403, 200, 404, 200] },
  'GET /api/survey/:uuid/export': { request: (i) => ({ url: `/api/survey/${i.survey}/export?format=csv` }), expect: [401, 403, 403, 200, 404, 200] },
  'POST /api/survey/:uuid/send': { request: (i) => ({ url: `/api/survey/${i.unknown}/send`, payload: { organizations: [i.orgA], audience: 'members' } }), expect: [401, 403, 403, 404, 404, 404] },
  'DELETE /api/survey/:uuid': { request: (i) => ({ url: `/api/survey/${i.unknown}` }), expect: [401, 403, 403, 404, 404, 404] },
  'GET /api/audit-log': { expect: [401, 403, 200, 200, 200, 200] },
  'GET /api/audit-log/actors': { expect: [401, 403, 200, 200, 200, 200] },
  'GET /api/stripe/plans': { expect: [401, 200, 200, 200, 200, 200] },
  'GET /api/stripe/product/:id': { request: (i) => ({ url: `/api/stripe/product/${i.plan}` }), expect: [401, 200, 200, 200, 200, 200] },
  'GET /api/stripe/current-plan': { expect: [401, 200, 200, 200, 200, 200] },
  'GET /api/stripe/environment/current-plan': { expect: [401, 200, 200, 200, 200, 200] },
  'POST /api/stripe/checkout': { request: (i) => ({ payload: { planId: i.plan, interval: 'month' } }), expect: [401, 403, 409, 409, 403, 409] },
  'GET /api/stripe/checkout/:sessionId': { request: () => ({ url: '/api/stripe/checkout/cs_inconnu' }), expect: [401, 403, 404, 404, 403, 404] },
  'POST /api/stripe/checkout/:sessionId/pay': { request: () => ({ url: '/api/stripe/checkout/cs_inconnu/pay' }), expect: [401, 403, 404, 404, 403, 404] },
  'GET /api/stripe/invoices': { expect: [401, 403, 200, 200, 403, 200] },
  'GET /api/stripe/invoices/:uuid/pdf': { request: (i) => ({ url: `/api/stripe/invoices/${i.unknown}/pdf` }), expect: [401, 403, 404, 404, 403, 404] },
  'POST /api/invitation/check': { request: () => ({ payload: { token: TOKEN } }), expect: [400, 400, 400, 400, 400, 400] },
  'POST /api/invitation/accept': { request: () => ({ payload: { token: TOKEN, firstName: 'Ina', lastName: 'Vitée', password: 'Un-mot-de-passe-solide-1', cguAccepted: true } }), expect: [400, 400, 400, 400, 400, 400] },
  'POST /api/invitation/join': { request: () => ({ payload: { token: TOKEN } }), expect: [401, 400, 400, 400, 400, 400] },
  'GET /api/organization-invitation': { expect: [401, 403, 200, 200, 200, 200] },
  'POST /api/organization-invitation': { request: (_i, c) => ({ payload: { email: `invite-${c.toLowerCase()}@exemple.fr`, role: 'USER' } }), expect: [401, 403, 201, 201, 201, 201] },
  'POST /api/organization-invitation/:uuid/resend': { request: (i) => ({ url: `/api/organization-invitation/${i.invitation}/resend` }), expect: [401, 403, 200, 200, 404, 200] },
  'DELETE /api/organization-invitation/:uuid': { request: (i) => ({ url: `/api/organization-invitation/${i.unknown}` }), expect: [401, 403, 404, 404, 404, 404] },
  'POST /api/environment-user/:uuid/join': { request: (i) => ({ url: `/api/environment-user/${i.envA}/join` }), expect: [401, 404, 404, 404, 404, 200] },
  'POST /api/environment-user/:uuid/quit': { request: (i) => ({ url: `/api/environment-user/${i.envA}/quit` }), expect: [401, 404, 404, 204, 404, 204] },
};
