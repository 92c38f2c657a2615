import { CGU_VERSION, CSRF_HEADER, CSRF_HEADER_VALUE } from '@flotte/contract';
import { generate, generateSync } from 'otplib';
import { eq, sql } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { environments, environmentUsers } from '../src/db/schema/environments.js';
import { organizationInvitations } from '../src/db/schema/organizations.js';
import { emailChangeTokens, emailConfirmationTokens, loginChallenges, passwordResetTokens, users } from '../src/db/schema/users.js';
import { surveyRecipients, surveys } from '../src/db/schema/surveys.js';
import { hashRefreshToken } from '../src/lib/tokens.js';
import { createDrivers, createEnvironment, createSinisters, createUser, createVehicules, DEFAULT_TEST_PASSWORD, linkUser } from '../src/seed/factories.js';
import { openEnvironments, type EnvironmentFixtures } from './fixtures/environments.js';
import { type OpenApiSchema as Schema, openApiOperations } from './openapi.js';
import type { TestContext } from './test-app.js';

/**
 * Issue 9, "input never causes a 5xx": the inputs that answered 500 — a NUL in a text field or
 * a search, a date of year 0000 in a body or a filter, an e-mail of a few thousand characters —
 * and their cousins (a lone surrogate, a text over its maximum, a date outside 1900–2100) are a
 * French 400 naming the field, and nothing is written. The fields come from the committed OpenAPI
 * document: a new text or date field of a body or a query is covered without editing this file;
 * a new route with a body needs its valid body below.
 */


const RECOVERY_TOKEN = 'jeton-de-recuperation-hostile';
const EMAIL_CHANGE_TOKEN = 'jeton-de-changement-d-adresse-hostile';
const INVITATION_TOKEN = 'jeton-invitation-nouveau-hostile';
const JOIN_TOKEN = 'jeton-invitation-membre-hostile';
const SIGNUP_TOKEN = 'jeton-de-confirmation-hostile';
const SURVEY_TOKEN = 'jeton-de-questionnaire-hostile';

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
    // Two live invitations of Alpha Un: one for a new account, one for user-a's address (already a member: the join spends it).
    const week = new Date(Date.now() + 7 * 86_400_000);
    const [invitation] = await tx
      .insert(organizationInvitations)
      .values([
        { organizationUuid: f.orgA1.uuid, email: 'invitee-hostile@exemple.fr', role: 'USER', tokenHash: hashRefreshToken(INVITATION_TOKEN), expiresAt: week },
        { organizationUuid: f.orgA1.uuid, email: 'user-a@exemple.fr', role: 'USER', tokenHash: hashRefreshToken(JOIN_TOKEN), expiresAt: week },
      ])
      .returning({ uuid: organizationInvitations.uuid });
    ids.invitation = invitation!.uuid;
    // An account waiting for its confirmation, with its live link; a confirmed one without organization, for the onboarding.
    const signingUp = await createUser(tx, { email: 'inscription-hostile@exemple.fr' });
    await tx.update(users).set({ emailConfirmedAt: null, onboardingStep: 'welcome' }).where(eq(users.uuid, signingUp.uuid));
    await tx.insert(emailConfirmationTokens).values({ userUuid: signingUp.uuid, tokenHash: hashRefreshToken(SIGNUP_TOKEN), expiresAt: new Date(Date.now() + 3_600_000) });
    await createUser(tx, { email: 'accueil-hostile@exemple.fr' });
    // A draft survey (edited, then sent below), and a live link of another survey for the answer's valid body.
    const question = { uuid: '11111111-1111-4111-8111-111111111111', kind: 'text' as const, label: 'Une remarque ?', required: false, choices: [] };
    const [survey] = await tx.insert(surveys).values({ environmentUuid: f.envA.uuid, title: 'Témoin', questions: [question] }).returning();
    const [answered] = await tx.insert(surveys).values({ environmentUuid: f.envA.uuid, title: 'Envoyé', status: 'sent', questions: [question] }).returning();
    ids.survey = survey!.uuid;
    await tx.insert(surveyRecipients).values({
      organizationUuid: f.orgA1.uuid,
      organizationTitle: 'Étoile du Nord',
      surveyUuid: answered!.uuid,
      audience: 'members',
      email: 'repondant@exemple.fr',
      tokenHash: hashRefreshToken(SURVEY_TOKEN),
      expiresAt: new Date(Date.now() + 3_600_000),
    });
  });
  tokens.newcomer = await t.login('accueil-hostile@exemple.fr');
  await seedTwoFactor();
  const me = await t.as(tokens['admin-a']!, { method: 'GET', url: '/api/auth/me' });
  ids.user = me.json<{ uuid: string }>().uuid;
  // The account page: a live e-mail change link of admin-a, and a user of its own who deletes their account.
  await t.seed(async (tx) => {
    await tx.insert(emailChangeTokens).values({ userUuid: ids.user!, newEmail: 'admin-a.nouvelle@exemple.fr', tokenHash: hashRefreshToken(EMAIL_CHANGE_TOKEN), expiresAt: new Date(Date.now() + 3_600_000) });
    ids.leaving = (await createUser(tx, { email: 'partant@exemple.fr' })).uuid;
  });
  tokens.leaving = await t.login('partant@exemple.fr');
  // Billing (decision 044): only the administrator of an organization outside any environment pays.
  await t.seed(async (tx) => linkUser(tx, f.orgN.uuid, (await createUser(tx, { email: 'paie-hostile@exemple.fr' })).uuid, 'ADMIN'));
  tokens['payer-n'] = await t.login('paie-hostile@exemple.fr');
  ids.environment = f.envA.uuid;
  // The operator's console (decision 043): a tier of Cabinet Horizon, a guarantee of the list.
  const tiers = await t.as(tokens.root!, { method: 'GET', url: `/api/environment/${f.envA.uuid}/tier` });
  ids.tier = tiers.json<{ data: { uuid: string }[] }>().data[0]!.uuid;
  const guarantees = await t.as(tokens.root!, { method: 'GET', url: '/api/guarantees' });
  ids.guarantee = guarantees.json<{ uuid: string }[]>()[0]!.uuid;
  const members = await t.as(tokens['admin-a']!, { method: 'GET', url: `/api/organization-user?organization=${f.orgA1.uuid}` });
  ids.link = members.json<{ data: { uuid: string; role: string }[] }>().data.find((link) => link.role === 'USER')!.uuid;
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

/** Two-factor sign-in (decision 035): the users and keys its routes' valid bodies need. */
const totpSecrets: Record<string, string> = {};
const codeOf = (who: string) => generate({ secret: totpSecrets[who]!, epoch: Math.floor(Date.now() / 1000) });
async function seedTwoFactor() {
  const users = await t.seed(async (tx) => {
    const environment = await createEnvironment(tx, { title: 'Cabinet exigeant' });
    await tx.update(environments).set({ requireSuperadminTotp: true }).where(eq(environments.uuid, environment.uuid));
    const made: Record<string, string> = {};
    for (const who of ['totp-login', 'totp-pending', 'totp-renew', 'totp-off']) made[who] = (await createUser(tx, { email: `${who}@exemple.fr` })).email;
    const superadmin = await createUser(tx, { email: 'totp-setup@exemple.fr', roles: ['SUPERADMIN'] });
    await tx.insert(environmentUsers).values({ environmentUuid: environment.uuid, userUuid: superadmin.uuid });
    return made;
  });
  for (const [who, email] of Object.entries(users)) {
    tokens[who] = await t.login(email);
    const setup = await t.as(tokens[who], { method: 'POST', url: '/api/auth/totp/setup' });
    totpSecrets[who] = setup.json<{ secret: string }>().secret.replace(/\s/g, '');
    if (who === 'totp-pending') continue;
    const enabled = await t.as(tokens[who], { method: 'POST', url: '/api/auth/totp/enable', payload: { code: await codeOf(who) } });
    expect(enabled.statusCode, enabled.body).toBe(200);
  }
  const challenge = async (email: string) => (await t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email, password: DEFAULT_TEST_PASSWORD } })).json<{ challenge: string }>().challenge;
  ids.codeChallenge = await challenge('totp-login@exemple.fr');
  ids.setupChallenge = await challenge('totp-setup@exemple.fr');
  // The suite takes longer than a challenge lives.
  await t.seed((tx) => tx.update(loginChallenges).set({ expiresAt: new Date(Date.now() + 86_400_000) }));
}
/**
 * The code a valid body sends: the next period's (accepted with the tolerance of one step), later
 * than the enabling code's, so never a replay.
 */
const nextCode = (who: string) => generateSync({ secret: totpSecrets[who]!, epoch: Math.floor(Date.now() / 1000) + 30 });

/** Every row the API can write, in one digest: equal before and after means nothing was written. */
const TABLES = ['users', 'environments', 'environment_tiers', 'environment_users', 'organizations', 'organization_users', 'drivers', 'vehicules', 'sinisters', 'reports', 'register_counts', 'refresh_tokens', 'indicators', 'dashboard_configs', 'insurance_contracts', 'insurance_contract_guarantees', 'insurance_intermediaries', 'imports', 'import_changes', 'stored_files', 'documents', 'document_expiry_notices', 'password_reset_tokens', 'email_change_tokens', 'email_confirmation_tokens', 'organization_invitations', 'mail_outbox', 'user_totp', 'totp_recovery_codes', 'login_challenges', 'trusted_devices', 'prevention_alerts', 'organization_alerts', 'alert_reads', 'surveys', 'survey_recipients', 'survey_answers', 'audit_log', 'guarantees', 'billing_plans', 'billing_checkouts', 'billing_subscriptions', 'billing_invoices', 'billing_events'];
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
  'PATCH /api/organization-user/{id}': { who: 'admin-a', body: () => ({ role: 'ADMIN' }) },
  'POST /api/organization-invitation': { who: 'admin-a', body: () => ({ email: 'collegue-hostile@exemple.fr', role: 'USER' }) },
  // The link's calls: a check writes nothing; the acceptances spend their links.
  'POST /api/invitation/check': { who: '', body: () => ({ token: INVITATION_TOKEN }) },
  'POST /api/invitation/accept': { who: '', body: () => ({ token: INVITATION_TOKEN, firstName: 'Léa', lastName: 'Invitée', password: 'Une phrase assez longue 1', cguAccepted: true }) },
  'POST /api/invitation/join': { who: 'user-a', body: () => ({ token: JOIN_TOKEN }) },
  'POST /api/broker/organization': { who: 'super-a', body: () => ({ title: 'Organisation témoin' }) },
  'POST /api/environment': { who: 'root', body: () => ({ title: 'Espace', refererEmail: 'a@exemple.fr', bookingUrl: 'https://rdv.exemple.fr', freeOrganizations: 1, stripeProductId: 'prod_1' }) },
  'PATCH /api/environment/{uuid}': { who: 'root', body: () => ({ title: 'Espace', refererEmail: 'a@exemple.fr', bookingUrl: 'https://rdv.exemple.fr', stripeProductId: 'prod_1' }) },
  'POST /api/environment/{uuid}/tier': { who: 'root', body: () => ({ title: 'Palier témoin', startDate: '2031-03-01', priceCents: 1200, includedOrganizations: 2, freeOrganizations: 1 }) },
  'PATCH /api/environment/{uuid}/tier/{tierUuid}': { who: 'root', body: () => ({ title: 'Palier renommé', priceCents: 900 }) },
  'POST /api/guarantees': { who: 'root', body: () => ({ label: 'Garantie témoin' }) },
  'PATCH /api/guarantees/{uuid}': { who: 'root', body: () => ({ label: 'Garantie renommée' }) },
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
  'POST /api/stripe/checkout': { who: 'payer-n', body: () => ({ planId: 'pro', interval: 'month' }) },
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
  // The account page: another user asks for a change (super-a's links are not admin-a's), admin-a confirms its own.
  'POST /api/user/email': { who: 'super-a', body: () => ({ newEmail: 'super-a.nouvelle@exemple.fr', currentPassword: 'Motdepasse-tests-1' }) },
  'POST /api/user/email/confirm': { who: 'admin-a', body: () => ({ token: EMAIL_CHANGE_TOKEN }) },
  'DELETE /api/user/{uuid}': { who: 'leaving', body: () => ({ currentPassword: 'Motdepasse-tests-1', confirmation: 'SUPPRIMER' }) },
  // Signup (decision 033): a new address writes its account; a resend for an unknown one writes nothing.
  'POST /api/auth/signup': { who: '', body: () => ({ firstName: 'Léa', lastName: 'Roux', email: 'nouvelle-hostile@exemple.fr', password: 'Une phrase assez longue 1', cguVersion: CGU_VERSION }) },
  'POST /api/auth/signup/resend': { who: '', body: () => ({ email: 'inconnue-hostile@exemple.fr' }) },
  'POST /api/auth/signup/confirm': { who: '', body: () => ({ token: SIGNUP_TOKEN }) },
  // The onboarding of a user without organization: the company first, then a later step.
  'POST /api/onboarding/company': { who: 'newcomer', body: () => ({ title: 'Transports Roux', companyId: '732829320', address: '1 rue de la Paix, Paris', fleetSize: '1-9' }) },
  'PUT /api/onboarding/step': { who: 'newcomer', body: () => ({ step: 'finish' }) },
  // Two-factor sign-in: a code challenge passed, a required setup begun, a setup ended, codes renewed, TOTP turned off.
  'POST /api/auth/login/totp': { who: '', body: () => ({ challenge: ids.codeChallenge!, code: nextCode('totp-login'), rememberDevice: true }) },
  'POST /api/auth/login/totp/setup': { who: '', body: () => ({ challenge: ids.setupChallenge! }) },
  'POST /api/auth/totp/enable': { who: 'totp-pending', body: () => ({ code: nextCode('totp-pending') }) },
  'POST /api/auth/totp/recovery-codes': { who: 'totp-renew', body: () => ({ code: nextCode('totp-renew') }) },
  'POST /api/auth/totp/disable': { who: 'totp-off', body: () => ({ password: DEFAULT_TEST_PASSWORD, code: nextCode('totp-off') }) },
  'POST /api/environment/{uuid}/alert': { who: 'super-a', body: () => ({ title: 'Prévention hiver', body: 'Pensez aux **pneus**.', severity: 'information', target: { kind: 'all' } }) },
  'PUT /api/environment/{uuid}/alert-digest': { who: 'super-a', body: () => ({ enabled: false }) },
  'POST /api/survey': { who: 'super-a', body: () => ({ title: 'Satisfaction', introduction: 'Trois questions.', questions: [{ kind: 'text', label: 'Une remarque ?' }] }) },
  // Before the sending below, which freezes the survey.
  'PATCH /api/survey/{uuid}': { who: 'super-a', body: () => ({ title: 'Satisfaction (v2)', introduction: 'Deux questions.', questions: [{ kind: 'text', label: 'Une idée ?' }] }) },
  'POST /api/survey/{uuid}/send': { who: 'super-a', body: () => ({ organizations: [f.orgA1.uuid], audience: 'members', expiresInDays: 30 }) },
  'POST /api/survey-response/open': { who: '', body: () => ({ token: SURVEY_TOKEN }) },
  // After the opening above: it spends the link.
  'POST /api/survey-response': { who: '', body: () => ({ token: SURVEY_TOKEN, answers: [{ question: '11111111-1111-4111-8111-111111111111', text: 'Rien à signaler' }] }) },
  // Last: it ends the sessions of its caller, who sends nothing else here.
  'POST /api/auth/password': { who: 'user-a', body: () => ({ currentPassword: 'Motdepasse-tests-1', newPassword: 'Un-nouveau-mot-de-passe-1' }) },
};

/** Routes with a body that write nothing when valid: a recovery request for an unknown address, a link's check. */
const READS = new Set<string>(['POST /api/auth/recover', 'POST /api/auth/recover/check', 'POST /api/invitation/check', 'POST /api/auth/signup/resend', 'POST /api/survey-response/open']);

/** Who asks the routes that take no body. */
const QUERY_CALLER: Record<string, string> = { '/api/broker/organization': 'super-a', '/api/broker/organization/export': 'super-a', '/api/organization': 'root', '/api/organization/environment': 'super-a', '/api/organization-user': 'super-a', '/api/organization-invitation': 'admin-a', '/api/environment': 'root' };

function urlOf(path: string, query: Record<string, string> = {}, who = '') {
  const filled = path.replace(/\{(\w+)\}/g, (_, name: string) => {
    if (path.startsWith('/api/environment')) return name === 'tierUuid' ? ids.tier! : ids.environment!;
    if (path.startsWith('/api/guarantees')) return ids.guarantee!;
    if (path.startsWith('/api/user')) return who === 'leaving' ? ids.leaving! : ids.user!;
    if (path.startsWith('/api/vehicule/category')) return 'VP';
    if (path.startsWith('/api/import')) return name === 'entity' ? 'driver' : ids.import!;
    if (path.startsWith('/api/document')) return ids.document!;
    if (path.startsWith('/api/organization-user')) return ids.link!;
    if (path.startsWith('/api/organization-invitation')) return ids.invitation!;
    if (path.startsWith('/api/survey')) return ids.survey!;
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
  return openApiOperations().map(({ method, path, operation }) => ({ key: `${method} ${path}`, method, path, op: operation }));
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
      const response = await call(valid.who, method, urlOf(path, {}, valid.who), { ...valid.body(), [field]: value });
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
      const response = await call(valid.who, method, urlOf(path, {}, valid.who), valid.body());
      expect(response.statusCode, `${key}: ${response.body}`).toBeLessThan(300);
      // The digest sees each write (a login, its session): "unchanged" above means something.
      if (READS.has(key)) expect(await fingerprint(), key).toBe(before);
      else expect(await fingerprint(), key).not.toBe(before);
    }
  });
});
