import { seedDemoSurvey } from './demo-surveys.js';
import { count, inArray } from 'drizzle-orm';
import type { Database } from '../db/client.js';
import { withSystem } from '../db/scope.js';
import { users } from '../db/schema/users.js';
import { ensureCurrentScope } from '../modules/users/users.service.js';
import { seedAutomaticAlerts, seedWrittenAlert } from './demo-alerts.js';
import { DURAND_PLAN, MARTIN_PLAN, seedFleet } from './demo-fleet.js';
import { DURAND_PERIODS, MARTIN_PERIODS, seedPeriods } from './demo-periods.js';
import {
  attachToEnvironment,
  createEnvironment,
  createInsuranceContract,
  createInvitation,
  createInsuranceIntermediary,
  createOrganization,
  createUser,
  linkUser,
} from './factories.js';

export const DEMO_ACCOUNTS = [
  { email: 'superadmin@demo.fr', label: 'Superadmin du Cabinet Démo Courtage' },
  { email: 'admin@demo.fr', label: 'Administrateur — Transports Martin et BTP Durand' },
  { email: 'user@demo.fr', label: 'Utilisateur — Transports Martin' },
  { email: 'admin2@demo.fr', label: 'Administrateur — BTP Durand' },
  { email: 'user2@demo.fr', label: 'Utilisateur — BTP Durand' },
  { email: 'user3@demo.fr', label: 'Utilisateur — Transports Martin (parcours « Paramètres compte »)' },
  { email: 'securite@demo.fr', label: 'Utilisateur — Transports Martin (double authentification désactivée, à essayer)' },
  { email: 'root@demo.fr', label: 'Root — opérateur de la plateforme' },
  { email: 'courtier@demo.fr', label: 'Superadmin du Cabinet Réglages (parcours « Paramètres » superadmin)' },
  { email: 'client@demo.fr', label: 'Utilisateur — Garage Réglages, client du Cabinet Réglages' },
  { email: 'facturation@demo.fr', label: 'Administrateur — Garage Lemoine, hors espace (offres et paiement)' },
] as const;

/**
 * Seeds the demo on an empty database (no user at all); otherwise reports whether the demo
 * accounts are there, so a second start reuses the data.
 */
export async function seedDemoIfEmpty(db: Database, password: string) {
  const existing = await withSystem(db, async (tx) => {
    const [all] = await tx.select({ n: count() }).from(users);
    const demo = await tx
      .select({ email: users.email })
      .from(users)
      .where(inArray(users.email, DEMO_ACCOUNTS.map((a) => a.email)));
    return { total: all?.n ?? 0, demo: demo.length };
  });
  if (existing.total > 0) return existing.demo > 0 ? { created: false, accounts: DEMO_ACCOUNTS } : null;
  await seedDemo(db, password);
  return { created: true, accounts: DEMO_ACCOUNTS };
}

export async function seedDemo(db: Database, password: string) {
  const emails = await withSystem(db, async (tx) => {
    const environment = await createEnvironment(tx, {
      title: 'Cabinet Démo Courtage',
      refererEmail: 'contact@cabinet-demo-courtage.fr',
      bookingUrl: 'https://rendez-vous.cabinet-demo-courtage.fr/visio-30-minutes',
      tiers: [
        // Midnight in Paris; prices per vehicle per month, excluding VAT (decision 043).
        { title: 'Lancement', startAt: new Date('2023-12-31T23:00:00Z'), priceCents: 1500, includedOrganizations: 3, freeOrganizations: 1 },
        { title: 'Croissance', startAt: new Date('2024-12-31T23:00:00Z'), priceCents: 1200, includedOrganizations: 10, freeOrganizations: 2 },
      ],
    });
    const martin = await createOrganization(tx, { title: 'Transports Martin', environmentUuid: environment.uuid });
    const durand = await createOrganization(tx, { title: 'BTP Durand', environmentUuid: environment.uuid });

    const superadmin = await createUser(tx, {
      email: 'superadmin@demo.fr',
      password,
      firstName: 'Sophie',
      lastName: 'Lefèvre',
      roles: ['SUPERADMIN'],
      description: 'Chargée de clientèle flottes automobiles au Cabinet Démo Courtage. Joignable du lundi au vendredi, 9 h – 18 h.',
      phone: '+33612345678',
    });
    await attachToEnvironment(tx, environment.uuid, superadmin.uuid);
    // A broker works inside its clients' organizations: it starts in the first one.
    await linkUser(tx, martin.uuid, superadmin.uuid);

    const admin = await createUser(tx, { email: 'admin@demo.fr', password, firstName: 'Julien', lastName: 'Martin', phone: '+33687654321' });
    await linkUser(tx, martin.uuid, admin.uuid, 'ADMIN');
    await linkUser(tx, durand.uuid, admin.uuid, 'ADMIN');

    const user = await createUser(tx, { email: 'user@demo.fr', password, firstName: 'Claire', lastName: 'Petit', roles: ['USER'], phone: '+33611223344' });
    await linkUser(tx, martin.uuid, user.uuid);

    const admin2 = await createUser(tx, { email: 'admin2@demo.fr', password, firstName: 'Marc', lastName: 'Durand' });
    await linkUser(tx, durand.uuid, admin2.uuid, 'ADMIN');
    // A colleague Marc Durand invited, who has not answered yet (« Membres » in /parameters, where both demo administrators land).
    await createInvitation(tx, { organizationUuid: durand.uuid, email: 'nadia.benali@demo.fr', role: 'USER', invitedByUuid: admin2.uuid });

    const user2 = await createUser(tx, { email: 'user2@demo.fr', password, firstName: 'Sophie', lastName: 'Lambert', roles: ['USER'] });
    await linkUser(tx, durand.uuid, user2.uuid);

    // The account page's e2e changes this one (names, photo, e-mail, sessions): no other file uses it.
    const user3 = await createUser(tx, { email: 'user3@demo.fr', password, firstName: 'Julien', lastName: 'Roux', roles: ['USER'] });
    await linkUser(tx, martin.uuid, user3.uuid);
    // Two-factor sign-in off, to try it on /account (its e2e owns this account).
    const securite = await createUser(tx, { email: 'securite@demo.fr', password, firstName: 'Hugo', lastName: 'Garnier', roles: ['USER'] });
    await linkUser(tx, martin.uuid, securite.uuid);

    await createUser(tx, { email: 'root@demo.fr', password, firstName: 'Alex', lastName: 'Moreau', roles: ['ROOT'] });

    // A second broker with one client, for /superadmin/settings: its e2e changes the environment,
    // the broker's card and its digest choice, which no other e2e file reads.
    const settingsEnvironment = await createEnvironment(tx, {
      title: 'Cabinet Réglages',
      refererEmail: 'contact@cabinet-reglages.fr',
      bookingUrl: 'https://rendez-vous.cabinet-reglages.fr/visio',
    });
    const garage = await createOrganization(tx, { title: 'Garage Réglages', environmentUuid: settingsEnvironment.uuid });
    const broker = await createUser(tx, {
      email: 'courtier@demo.fr',
      password,
      firstName: 'Bruno',
      lastName: 'Carré',
      roles: ['SUPERADMIN'],
      description: 'Courtier flottes au Cabinet Réglages.',
      phone: '+33698765432',
    });
    await attachToEnvironment(tx, settingsEnvironment.uuid, broker.uuid);
    await linkUser(tx, garage.uuid, broker.uuid);
    const client = await createUser(tx, { email: 'client@demo.fr', password, firstName: 'Inès', lastName: 'Moulin', roles: ['USER'] });
    await linkUser(tx, garage.uuid, client.uuid);
    // An organization outside any environment: it pays for itself (issue 17, decision 044; its e2e owns this account).
    const lemoine = await createOrganization(tx, { title: 'Garage Lemoine' });
    const billing = await createUser(tx, { email: 'facturation@demo.fr', password, firstName: 'Nathalie', lastName: 'Lemoine' });
    await linkUser(tx, lemoine.uuid, billing.uuid, 'ADMIN');

    await seedFleet(tx, martin.uuid, MARTIN_PLAN);
    await seedFleet(tx, durand.uuid, DURAND_PLAN);
    const martinPeriods = await seedPeriods(tx, martin.uuid, MARTIN_PERIODS);
    const durandPeriods = await seedPeriods(tx, durand.uuid, DURAND_PERIODS);
    await seedInsurance(tx, { uuid: martin.uuid, periods: martinPeriods }, { uuid: durand.uuid, periods: durandPeriods });
    await seedDemoSurvey(tx, environment.uuid, superadmin.uuid, [
      { organization: { uuid: martin.uuid, title: 'Transports Martin' }, email: 'admin@demo.fr' },
      { organization: { uuid: durand.uuid, title: 'BTP Durand' }, email: 'admin2@demo.fr' },
      { organization: { uuid: martin.uuid, title: 'Transports Martin' }, email: 'user@demo.fr' },
      { organization: { uuid: durand.uuid, title: 'BTP Durand' }, email: 'user2@demo.fr' },
    ]);
    await seedWrittenAlert(tx, environment.uuid, superadmin.uuid, [martin.uuid, durand.uuid]);
    return {
      users: [superadmin.uuid, admin.uuid, user.uuid, admin2.uuid, user2.uuid, user3.uuid, securite.uuid, broker.uuid, client.uuid, billing.uuid],
      organizations: [martin.uuid, durand.uuid],
    };
  });
  for (const uuid of emails.users) await ensureCurrentScope(db, uuid);
  await seedAutomaticAlerts(db, emails.organizations);
}

type SeededOrganization = { uuid: string; periods: { startDate: string; endDate: string; cashReceivedCents: number }[] };

const addDays = (iso: string, days: number) => new Date(Date.parse(`${iso}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
/** A contract version saved `days` before it starts, at `time` (UTC). */
const savedBefore = (start: string, days: number, time: string) => new Date(`${addDays(start, -days)}T${time}Z`);

/**
 * The contracts and intermediaries /parameters shows on first start: Martin with a contract's history
 * and a change of broker. The contracts follow the seeded periods (relative to today), so the one in
 * force covers today and its échéance is the current period's end: never a renewal date in the past;
 * its annual premium is the premium the period earns (what the S/P divides by).
 */
async function seedInsurance(tx: Parameters<typeof createInsuranceContract>[0], martinOrg: SeededOrganization, durandOrg: SeededOrganization) {
  const martinUuid = martinOrg.uuid;
  const durandUuid = durandOrg.uuid;
  const martinFirst = martinOrg.periods[0]!;
  const martinCurrent = martinOrg.periods.at(-1)!;
  const durandCurrent = durandOrg.periods.at(-1)!;
  const martinGuarantees = [
    { label: 'Responsabilité civile', deductible: 0 },
    { label: 'Défense pénale et recours', deductible: 0 },
    { label: 'Dommages tous accidents', deductible: 750 },
    { label: 'Vol', deductible: 1_000 },
    { label: 'Incendie', deductible: 1_000 },
    { label: 'Bris de glace', deductible: 150 },
  ];
  await createInsuranceContract(tx, martinUuid, {
    insurer: 'Axa France',
    policyNumber: 'FLT-2024-001873',
    // A first contract over the earlier periods, then renewed for the current one.
    startDate: martinFirst.startDate,
    renewalDate: martinCurrent.startDate,
    annualPremium: martinFirst.cashReceivedCents / 100,
    guarantees: martinGuarantees,
    createdAt: savedBefore(martinFirst.startDate, 17, '09:00:00'),
  });
  await createInsuranceContract(tx, martinUuid, {
    insurer: 'Axa France',
    policyNumber: 'FLT-2024-001873',
    startDate: martinCurrent.startDate,
    renewalDate: addDays(martinCurrent.endDate, 1),
    annualPremium: martinCurrent.cashReceivedCents / 100,
    guarantees: [...martinGuarantees.filter((g) => g.label !== 'Bris de glace'), { label: 'Bris de glace', deductible: 100 }],
    createdAt: savedBefore(martinCurrent.startDate, 13, '14:30:00'),
  });
  await createInsuranceIntermediary(tx, martinUuid, {
    name: 'Assurances Bertin & Associés',
    contactLastName: 'Bertin',
    contactFirstName: 'Hélène',
    email: 'h.bertin@bertin-assurances.fr',
    productionEmail: 'production@bertin-assurances.fr',
    startDate: new Date('2022-01-03T11:00:00Z'),
  });
  await createInsuranceIntermediary(tx, martinUuid, {
    name: 'Cabinet Démo Courtage',
    contactLastName: 'Lefèvre',
    contactFirstName: 'Sophie',
    email: 'sophie.lefevre@cabinet-demo-courtage.fr',
    productionEmail: 'production@cabinet-demo-courtage.fr',
    startDate: new Date('2024-01-02T11:00:00Z'),
  });
  await createInsuranceContract(tx, durandUuid, {
    insurer: 'MMA Entreprise',
    policyNumber: 'MMA-FL-55021',
    startDate: durandCurrent.startDate,
    renewalDate: addDays(durandCurrent.endDate, 1),
    annualPremium: durandCurrent.cashReceivedCents / 100,
    guarantees: [
      { label: 'Responsabilité civile', deductible: 0 },
      { label: 'Dommages collision', deductible: 1_200 },
      { label: 'Vol', deductible: 1_500 },
      { label: 'Bris de glace', deductible: 200 },
    ],
    createdAt: savedBefore(durandCurrent.startDate, 11, '10:00:00'),
  });
  await createInsuranceIntermediary(tx, durandUuid, {
    name: 'Cabinet Démo Courtage',
    contactLastName: 'Lefèvre',
    contactFirstName: 'Sophie',
    email: 'sophie.lefevre@cabinet-demo-courtage.fr',
    productionEmail: 'production@cabinet-demo-courtage.fr',
    startDate: new Date('2025-07-01T10:00:00Z'),
  });
}
