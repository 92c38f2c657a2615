import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkCompanyId, CGU_VERSION, formatCompanyId } from '@flotte/contract';
import { organizations, organizationUsers } from '../../db/schema/organizations.js';
import { users } from '../../db/schema/users.js';
import { createOrganization, createUser, linkUser } from '../../seed/factories.js';
import { createTestApp, type TestContext } from '../../../test/test-app.js';
import { ALREADY_MEMBER_MESSAGE, NO_ORGANIZATION_YET_MESSAGE } from './onboarding.service.js';

let t: TestContext;

beforeAll(async () => {
  t = await createTestApp();
});

afterAll(async () => {
  await t.close();
});

const COMPANY = { title: 'Transports Moreau', companyId: '732 829 320', address: '12 rue des Lilas, 69003 Lyon', fleetSize: '10-49' };

/** A user as the signup leaves them once confirmed: no organization, at the welcome step. */
async function newcomer(email: string) {
  await t.seed((tx) => createUser(tx, { email, cguAcceptedVersion: CGU_VERSION }));
  await t.seed((tx) => tx.update(users).set({ onboardingStep: 'welcome' }).where(eq(users.email, email)));
  return t.login(email);
}

const state = (token: string) => t.as(token, { method: 'GET', url: '/api/onboarding' });
const step = (token: string, value: unknown) => t.as(token, { method: 'PUT', url: '/api/onboarding/step', payload: { step: value } });
const company = (token: string, payload: object) => t.as(token, { method: 'POST', url: '/api/onboarding/company', payload });
const organizationCount = () => t.seed(async (tx) => (await tx.select({ n: sql<number>`count(*)::int` }).from(organizations))[0]!.n);

describe('onboarding', () => {
  it('walks welcome → company → members → finish → done, the organization made with the user as its administrator and current one', async () => {
    const token = await newcomer('parcours@exemple.fr');
    expect((await state(token)).json()).toEqual({ step: 'welcome', organization: null });
    expect((await step(token, 'company')).json()).toEqual({ step: 'company', organization: null });
    // A new sign-in resumes there.
    expect((await state(await t.login('parcours@exemple.fr'))).json().step).toBe('company');

    const created = await company(token, COMPANY);
    expect(created.statusCode).toBe(201);
    expect(created.json()).toMatchObject({
      step: 'members',
      organization: { title: 'Transports Moreau', siren: '732829320', siret: null, address: '12 rue des Lilas, 69003 Lyon', fleetSize: '10-49', logo: null },
    });
    // The same token now works in the new organization, as its administrator.
    const me = (await t.as(token, { method: 'GET', url: '/api/auth/me' })).json();
    expect(me.currentOrganizationUser.organization.title).toBe('Transports Moreau');
    expect(me.roles).toContain('ADMIN');
    expect((await t.as(token, { method: 'GET', url: '/api/vehicule' })).statusCode).toBe(200);

    expect((await state(token)).json().step).toBe('members');
    expect((await step(token, 'finish')).json()).toMatchObject({ step: 'finish', organization: { title: 'Transports Moreau' } });
    expect((await state(await t.login('parcours@exemple.fr'))).json().step).toBe('finish');
    expect((await step(token, 'done')).json()).toEqual({ step: 'done', organization: null });
    expect((await state(token)).json().step).toBe('done');
    expect((await t.seed((tx) => tx.select({ step: users.onboardingStep }).from(users).where(eq(users.email, 'parcours@exemple.fr'))))[0]!.step).toBeNull();
  });

  it('keeps a SIRET, and its SIREN (its first nine digits)', async () => {
    const token = await newcomer('siret@exemple.fr');
    const created = await company(token, { ...COMPANY, companyId: '732.829.320 00074' });
    expect(created.statusCode).toBe(201);
    expect(created.json().organization).toMatchObject({ siren: '732829320', siret: '73282932000074' });
  });

  it('a user who already has an organization cannot make one here (409), and has nothing to do', async () => {
    const org = await t.seed((tx) => createOrganization(tx, { title: 'Déjà là' }));
    const member = await t.seed((tx) => createUser(tx, { email: 'membre-existant@exemple.fr' }));
    await t.seed((tx) => linkUser(tx, org.uuid, member.uuid));
    const token = await t.login('membre-existant@exemple.fr');
    expect((await state(token)).json()).toEqual({ step: 'done', organization: null });
    const before = await organizationCount();
    const refused = await company(token, COMPANY);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toBe(ALREADY_MEMBER_MESSAGE);
    expect(await organizationCount()).toBe(before);
    expect((await step(token, 'company')).statusCode).toBe(409);
  });

  it('the company step runs once: a second submission is refused and nothing more is written', async () => {
    const token = await newcomer('deux-fois@exemple.fr');
    expect((await company(token, COMPANY)).statusCode).toBe(201);
    const before = await organizationCount();
    const again = await company(token, { ...COMPANY, title: 'Autre société' });
    expect(again.statusCode).toBe(409);
    expect(await organizationCount()).toBe(before);
  });

  it('of two submissions at the same time, one organization is made', async () => {
    const token = await newcomer('course-societe@exemple.fr');
    const before = await organizationCount();
    const answers = await Promise.all([company(token, COMPANY), company(token, { ...COMPANY, title: 'Doublon' })]);
    expect(answers.map((a) => a.statusCode).sort()).toEqual([201, 409]);
    expect(await organizationCount()).toBe(before + 1);
  });

  it('a member by invitation (an organization, no onboarding started) goes straight to the dashboard', async () => {
    const org = await t.seed((tx) => createOrganization(tx, { title: 'Invitante' }));
    const invited = await t.seed((tx) => createUser(tx, { email: 'invitee@exemple.fr' }));
    await t.seed((tx) => linkUser(tx, org.uuid, invited.uuid));
    await t.seed((tx) => tx.update(users).set({ onboardingStep: 'welcome' }).where(eq(users.uuid, invited.uuid)));
    expect((await state(await t.login('invitee@exemple.fr'))).json().step).toBe('done');
  });

  it('an operator without organization is never asked', async () => {
    await t.seed((tx) => createUser(tx, { email: 'superadmin-vide@exemple.fr', roles: ['SUPERADMIN'] }));
    const token = await t.login('superadmin-vide@exemple.fr');
    expect((await state(token)).json().step).toBe('done');
    expect((await company(token, COMPANY)).statusCode).toBe(409);
  });

  it('refuses the later steps before the organization exists', async () => {
    const token = await newcomer('trop-tot@exemple.fr');
    for (const later of ['members', 'finish', 'done']) {
      const refused = await step(token, later);
      expect(refused.statusCode).toBe(409);
      expect(refused.json().message).toBe(NO_ORGANIZATION_YET_MESSAGE);
    }
    expect((await state(token)).json().step).toBe('welcome');
    const unknown = await step(token, 'paiement');
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().details).toContainEqual({ path: 'step', message: 'Étape inconnue' });
  });

  it.each([
    [{ title: '' }, 'title', 'Le nom de l’organisation est obligatoire'],
    [{ companyId: '' }, 'companyId', 'Le SIREN ou le SIRET est obligatoire'],
    [{ companyId: '12345' }, 'companyId', 'Le SIREN compte 9 chiffres, le SIRET 14 chiffres'],
    [{ companyId: '732829321' }, 'companyId', 'Ce SIREN est invalide : vérifiez les chiffres (clé de contrôle incorrecte)'],
    [{ companyId: '73282932000075' }, 'companyId', 'Ce SIRET est invalide : vérifiez les chiffres (clé de contrôle incorrecte)'],
    [{ companyId: 'ABCDEFGHI' }, 'companyId', 'Le SIREN compte 9 chiffres, le SIRET 14 chiffres'],
    [{ address: ' ' }, 'address', 'L’adresse est obligatoire'],
    [{ fleetSize: '1000' }, 'fleetSize', 'Choisissez la taille de votre flotte'],
    [{ environmentUuid: '00000000-0000-4000-8000-000000000000' }, '', 'Champ non reconnu : environmentUuid'],
  ])('refuses %j with a French 400 and writes nothing', async (change, path, message) => {
    const token = await newcomer(`refus-societe-${path || 'cle'}-${message.length}-${JSON.stringify(change).length}@exemple.fr`);
    const before = await organizationCount();
    const response = await company(token, { ...COMPANY, ...change });
    expect(response.statusCode).toBe(400);
    expect(response.json().details).toContainEqual({ path, message });
    expect(await organizationCount()).toBe(before);
    expect((await state(token)).json().step).toBe('welcome');
  });

  it('needs a session', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/api/onboarding' })).statusCode).toBe(401);
    expect((await t.app.inject({ method: 'POST', url: '/api/onboarding/company', payload: COMPANY })).statusCode).toBe(401);
  });

  it('the new organization is the user’s only: another user does not see it', async () => {
    const token = await newcomer('proprietaire@exemple.fr');
    const { organization } = (await company(token, { ...COMPANY, title: 'Société Privée' })).json();
    const other = await newcomer('voisin@exemple.fr');
    const listed = (await t.as(other, { method: 'GET', url: '/api/organization' })).json();
    expect(listed.data.map((o: { uuid: string }) => o.uuid)).not.toContain(organization.uuid);
    const links = await t.seed((tx) => tx.select().from(organizationUsers).where(eq(organizationUsers.organizationUuid, organization.uuid)));
    expect(links).toHaveLength(1);
  });
});

describe('SIREN and SIRET keys (Luhn)', () => {
  it.each([
    ['732829320', { kind: 'siren', value: '732829320' }],
    ['542 051 180', { kind: 'siren', value: '542051180' }],
    ['54205118000066', { kind: 'siret', value: '54205118000066' }],
    // La Poste's establishments: digits summing to a multiple of 5.
    ['35600000012341', { kind: 'siret', value: '35600000012341' }],
    ['35600000000048', { kind: 'siret', value: '35600000000048' }],
  ])('accepts %s', (input, expected) => {
    expect(checkCompanyId(input)).toEqual(expected);
  });

  it('writes them grouped as INSEE does', () => {
    expect(formatCompanyId('732829320')).toBe('732 829 320');
    expect(formatCompanyId('73282932000074')).toBe('732 829 320 00074');
  });

  it.each(['542051181', '54205118000067', '35600000012342', '1234567890', '', 'SIREN1234'])('refuses %j', (input) => {
    expect(checkCompanyId(input)).toHaveProperty('error');
  });
});
