import { type HalfDifference, type LossRatio, todayIso } from '@flotte/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { indicators } from '../../db/schema/indicators.js';
import { createDrivers, createOrganization, createSinisters, createUser, createVehicules, linkUser } from '../../seed/factories.js';
import { pdfText, spaced } from '../../../test/pdf-text.js';
import { createTestApp, type TestContext } from '../../../test/test-app.js';
import { addMonths } from './dashboard.service.js';
import { reportCount, reportDate, reportEuros, reportPercent, reportSignedHalf, winAnsiSafe } from './renewal-report.pdf.js';
import { fileSlug, REPORT_CLAIMS_MAX } from './renewal-report.service.js';

let t: TestContext;
let admin: string;
let member: string;
let adminB: string;
let adminC: string;
let loner: string;
const today = todayIso();
const addDays = (iso: string, days: number) => new Date(Date.parse(`${iso}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
const start = addMonths(today, -6);
const ORG_A = 'Transports Cœur d’Été & Fils';
const MANY = REPORT_CLAIMS_MAX + 1_600;

beforeAll(async () => {
  t = await createTestApp();
  await t.seed(async (tx) => {
    const orgA = await createOrganization(tx, { title: ORG_A });
    const orgB = await createOrganization(tx, { title: 'Logistique Bêta' });
    const orgC = await createOrganization(tx, { title: 'Grande Flotte' });
    await createUser(tx, { email: 'loner@alpha.fr', roles: ['USER'] });
    for (const [email, role, org] of [
      ['admin@alpha.fr', 'ADMIN', orgA],
      ['user@alpha.fr', 'USER', orgA],
      ['admin@beta.fr', 'ADMIN', orgB],
      ['admin@gamma.fr', 'ADMIN', orgC],
    ] as const) {
      const user = await createUser(tx, { email });
      await linkUser(tx, org.uuid, user.uuid, role);
    }
    // A past period and the current one (N0 2, premium 1 200 €; N1 today 3).
    await tx.insert(indicators).values([
      { organizationUuid: orgA.uuid, startDate: addMonths(today, -15), endDate: addDays(addMonths(today, -3), -1), motorsCount: 4, cashReceivedCents: 250_000 },
      { organizationUuid: orgA.uuid, startDate: addMonths(today, -3), endDate: addDays(addMonths(today, 9), -1), motorsCount: 2, cashReceivedCents: 120_000 },
      { organizationUuid: orgB.uuid, startDate: addMonths(today, -3), endDate: addDays(addMonths(today, 9), -1), motorsCount: 9, cashReceivedCents: 990_000 },
    ]);
    const [vehicule] = await createVehicules(tx, orgA.uuid, [
      { immatriculation: 'CD201EF', entryDate: addMonths(today, -24), type: 'VUL' },
      { immatriculation: 'CD202EF', entryDate: addMonths(today, -1) },
      { immatriculation: 'CD203EF', entryDate: today },
    ]);
    const [driver] = await createDrivers(tx, orgA.uuid, [{ firstName: 'Élodie', lastName: 'Garçon' }]);
    await createSinisters(tx, orgA.uuid, [
      { sinisterIntermediateRef: 'ALPHA-001', sinisterDate: addMonths(today, -5), isDeclared: true, status: 'inProgress', paidCents: 34_456, reserveCents: 89_000, guaranteeLabel: 'Bris de glace', vehiculeUuid: vehicule!.uuid, driverUuid: driver!.uuid, responsibilityRate: 100 },
      { sinisterIntermediateRef: 'ALPHA-002', sinisterDate: addMonths(today, -2), isDeclared: false, totalCostCents: 45_000, responsibilityRate: 50 },
      { sinisterIntermediateRef: 'ALPHA-003', sinisterDate: today, isDeclared: true, totalCostCents: 1_000_001 },
      { sinisterIntermediateRef: 'ALPHA-ARCHIVE', sinisterDate: addMonths(today, -1), isDeclared: true, totalCostCents: 9_900, archivedAt: new Date() },
      { sinisterIntermediateRef: 'ALPHA-AVANT', sinisterDate: addDays(start, -1), isDeclared: true, totalCostCents: 7_700 },
    ]);
    await createSinisters(tx, orgB.uuid, [{ sinisterIntermediateRef: 'BETA-SECRET', sinisterDate: addMonths(today, -1), isDeclared: true, totalCostCents: 31_400 }]);
    // Thousands of claims: more than the report lists.
    await createSinisters(
      tx,
      orgC.uuid,
      Array.from({ length: MANY }, (_, i) => ({
        sinisterIntermediateRef: `GF-${String(i).padStart(5, '0')}`,
        sinisterDate: addDays(start, i % 180),
        isDeclared: i % 3 !== 0,
        totalCostCents: 10_000 + i,
      })),
    );
  });
  admin = await t.login('admin@alpha.fr');
  member = await t.login('user@alpha.fr');
  adminB = await t.login('admin@beta.fr');
  adminC = await t.login('admin@gamma.fr');
  loner = await t.login('loner@alpha.fr');
}, 120_000);
afterAll(() => t.close());

const report = (token: string, query = '') => t.as(token, { method: 'GET', url: `/api/dashboard/renewal-report${query}` });
const json = async <T>(token: string, url: string) => (await t.as(token, { method: 'GET', url })).json<T>();

describe('the renewal report', () => {
  it('every member downloads the window’s PDF under a safe ASCII file name', async () => {
    for (const token of [admin, member]) {
      const response = await report(token, `?startDate=${start}&endDate=${today}`);
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toBe('application/pdf');
      expect(response.headers['content-disposition']).toBe(`attachment; filename="rapport-sinistralite-transports-coeur-d-ete-fils-${start}-${today}.pdf"`);
      expect(response.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    }
  });

  it('shows the organization, the three figures as the dashboard computes them, the half-differences and the window’s claims', async () => {
    const query = `?startDate=${start}&endDate=${today}`;
    const { text, pages, info } = await pdfText((await report(member, query)).rawPayload);
    const lossRatio = await json<LossRatio>(member, `/api/dashboard/loss-ratio${query}`);
    const frequency = await json<{ claims: number; motors: number; frequency: number }>(member, '/api/dashboard/claim-frequency');
    const halves = await json<HalfDifference[]>(member, '/api/dashboard/half-differences');
    const current = halves.find((h) => h.isCurrent)!;
    const config = await json<{ lossRatioPercentage: number; claimFrequencyPercentage: number }>(member, '/api/dashboard/config');

    expect(info.Title).toBe(`Rapport de sinistralité — ${ORG_A}`);
    // The cover: organization, window, parties not known yet.
    expect(pages[0]).toContain('Rapport de sinistralité');
    expect(pages[0]).toContain(ORG_A);
    expect(pages[0]).toContain(`Période du ${reportDate(start)} au ${reportDate(today)}`);
    expect(pages[0]).toContain('Contrat flotte Non renseigné');
    expect(pages[0]).toContain('Intermédiaire d’assurance Non renseigné');
    // The figures, against their limits.
    expect(pages[0]).toContain(spaced(`S/P (sinistres / primes acquises) ${reportPercent(lossRatio.ratio)}`));
    expect(pages[0]).toContain(spaced(`Limite : ${config.lossRatioPercentage} %. Coût des sinistres : ${reportEuros(lossRatio.costOfClaims)} ; primes acquises : ${reportEuros(lossRatio.earnedPremiums)}.`));
    expect(pages[0]).toContain(spaced(`Fréquence des sinistres (période en cours) ${reportPercent(frequency.frequency)}`));
    expect(pages[0]).toContain(spaced(`${reportCount(frequency.claims)} sinistre(s) pour ${reportCount(frequency.motors)} véhicule(s)`));
    expect(pages[0]).toContain(spaced(`Demi-différence (période en cours) ${reportSignedHalf(current.halfDifference)} véhicule(s)`));
    expect(pages[0]).toContain(spaced(`Régularisation : ${reportEuros(current.regularisation!)}`));
    // The values these tests set up, as a reader sees them (1 234,56 € + 450,00 € + 10 000,01 €).
    expect(lossRatio.costOfClaims).toBe(11_684.57);
    expect(text).toContain('11 684,57 €');
    // Every half-difference row.
    expect(halves).toHaveLength(2);
    for (const h of halves) {
      expect(text).toContain(
        spaced(
          `${reportDate(h.startDate)} – ${reportDate(h.endDate)}${h.isCurrent ? ' *' : ''} ${reportCount(h.n0)} ${reportCount(h.n1)} ${reportDate(h.countedOn)} ${reportEuros(h.unitPremium!)} ${reportSignedHalf(h.halfDifference)} ${reportEuros(h.regularisation!)}`,
        ),
      );
    }
    // The monthly chart's legend and the breakdowns.
    expect(text).toContain('Coût des sinistres (axe de gauche)');
    expect(text).toContain(spaced(`Bris de glace 1 ${reportEuros(1_234.56)}`));
    expect(text).toContain(spaced(`Responsable (100 %) 1 ${reportEuros(1_234.56)}`));
    expect(text).toContain(spaced(`GARÇON Élodie 1 ${reportEuros(1_234.56)}`));
    // The claims of the window, and none other.
    const claims = pages.at(-1)!;
    expect(claims).toContain('Sinistres de la période');
    expect(claims).toContain(
      spaced(`${reportDate(addMonths(today, -5))} ALPHA-001 CD-201-EF Élodie Garçon Bris de glace En cours 100 % Oui ${reportEuros(344.56)} ${reportEuros(890)} ${reportEuros(1_234.56)}`),
    );
    for (const ref of ['ALPHA-002', 'ALPHA-003']) expect(claims).toContain(ref);
    for (const ref of ['ALPHA-ARCHIVE', 'ALPHA-AVANT', 'BETA-SECRET', 'GF-00000']) expect(text).not.toContain(ref);
    expect(text).not.toContain('autre(s) sinistre(s) non listé(s)');
  });

  it('isDeclared keeps the figures and the list to the claims asked for', async () => {
    const query = `?startDate=${start}&endDate=${today}&isDeclared=true`;
    const { text } = await pdfText((await report(admin, query)).rawPayload);
    const lossRatio = await json<LossRatio>(admin, `/api/dashboard/loss-ratio${query}`);
    expect(text).toContain('sinistres déclarés uniquement');
    expect(text).toContain(spaced(`Coût des sinistres : ${reportEuros(lossRatio.costOfClaims)} ; primes acquises : ${reportEuros(lossRatio.earnedPremiums)}.`));
    expect(text).toContain('ALPHA-001');
    expect(text).not.toContain('ALPHA-002');
  });

  it('without dates, covers the dashboard’s default window (the six months before today)', async () => {
    const response = await report(member);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-disposition']).toContain(`-${start}-${today}.pdf"`);
    const lossRatio = await json<LossRatio>(member, '/api/dashboard/loss-ratio');
    expect((await pdfText(response.rawPayload)).text).toContain(spaced(`S/P (sinistres / primes acquises) ${reportPercent(lossRatio.ratio)}`));
  });

  it('another organization’s report shows its own data only', async () => {
    const { text } = await pdfText((await report(adminB, `?startDate=${start}&endDate=${today}`)).rawPayload);
    expect(text).toContain('Logistique Bêta');
    expect(text).toContain('BETA-SECRET');
    expect(text).not.toContain('Cœur');
    for (const ref of ['ALPHA-001', 'ALPHA-002', 'ALPHA-003']) expect(text).not.toContain(ref);
    expect(text).not.toContain('GARÇON');
  });

  it(`with thousands of claims, lists the first ${REPORT_CLAIMS_MAX} and says how many more`, async () => {
    const response = await report(adminC, `?startDate=${start}&endDate=${today}`);
    expect(response.statusCode).toBe(200);
    const { text } = await pdfText(response.rawPayload);
    const monthly = await json<{ claims: number }[]>(adminC, `/api/dashboard/claims-by-month?startDate=${start}&endDate=${today}`);
    const total = monthly.reduce((sum, m) => sum + m.claims, 0);
    expect(total).toBe(MANY);
    const listed = text.match(/GF-\d{5}/g) ?? [];
    expect(new Set(listed).size).toBe(REPORT_CLAIMS_MAX);
    expect(text).toContain(spaced(`… et ${reportCount(total - REPORT_CLAIMS_MAX)} autre(s) sinistre(s) non listé(s)`));
    expect(text).toContain(spaced(`les ${reportCount(total)} sinistres`));
  }, 60_000);
});

describe('the contract and the broker on the cover', () => {
  it('are the contract in force and the current intermediary, when the organization has them', async () => {
    const contract = { insurer: 'Mutuelle d’Assurance des Transporteurs', policyNumber: 'FL-2026-0042', startDate: '2026-01-01', renewalDate: '2027-01-01', annualPremium: 48_250.5, guarantees: [] };
    expect((await t.as(adminB, { method: 'POST', url: '/api/contract/create-or-update', payload: contract })).statusCode).toBeLessThan(300);
    const broker = { name: 'Cabinet Lefèvre Courtage', contactFirstName: 'Hélène', contactLastName: 'Lefèvre', email: 'helene@lefevre-courtage.fr', productionEmail: 'production@lefevre-courtage.fr' };
    expect((await t.as(adminB, { method: 'POST', url: '/api/insurance-intermediary', payload: broker })).statusCode).toBeLessThan(300);
    const { pages } = await pdfText((await report(adminB, `?startDate=${start}&endDate=${today}`)).rawPayload);
    expect(pages[0]).toContain(
      spaced(
        `Contrat flotte Assureur ${contract.insurer} N° de police FL-2026-0042 Date d’effet ${reportDate(contract.startDate)} Échéance ${reportDate(contract.renewalDate)} Prime annuelle ${reportEuros(48_250.5)}`,
      ),
    );
    expect(pages[0]).toContain('Intermédiaire d’assurance Cabinet Cabinet Lefèvre Courtage Contact Hélène Lefèvre E-mail helene@lefevre-courtage.fr');
    expect(pages[0]).not.toContain('Non renseigné');
    // The first organization still has neither.
    expect((await pdfText((await report(member)).rawPayload)).pages[0]).toContain('Contrat flotte Non renseigné Intermédiaire d’assurance Non renseigné');
  });
});

describe('refusals', () => {
  it.each([
    ['?startDate=2024-12-31&endDate=2024-01-01', 'endDate', 'La date de début doit précéder la date de fin'],
    ['?startDate=31/12/2024', 'startDate', 'Date invalide'],
    ['?isDeclared=oui', 'isDeclared', 'true ou false'],
    ['?format=docx', '', 'Clé non reconnue'],
  ])('%s is a French 400 on its field', async (query, path, message) => {
    const response = await report(member, query);
    expect(response.statusCode).toBe(400);
    expect(response.headers['content-type']).toContain('application/json');
    expect(response.json().details).toContainEqual({ path, message: expect.stringContaining(message) });
  });

  it('requires a token, and an organization', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/api/dashboard/renewal-report' })).statusCode).toBe(401);
    const response = await report(loner);
    expect(response.statusCode).toBe(403);
    expect(response.json().message).toBe("Sélectionnez d'abord une organisation");
  });
});

describe('French formatting and the file name', () => {
  it('writes amounts, percentages, dates and vehicles the French way, with spaces the standard fonts hold', () => {
    expect(reportEuros(1234.56)).toBe('1\u00a0234,56\u00a0€');
    expect(reportPercent(65.3333)).toBe('65,3\u00a0%');
    expect(reportPercent(null)).toBe('—');
    expect(reportDate('2026-03-05')).toBe('05/03/2026');
    expect(reportSignedHalf(0.5)).toBe('+0,5');
    expect(reportSignedHalf(-2)).toBe('-2');
    expect(reportCount(1600)).toBe('1\u00a0600');
  });

  it('keeps what the standard fonts draw (é è à ç œ € « » ’) and never a wrong glyph for the rest', () => {
    expect(winAnsiSafe('Société Œuvre « à ç è » ’ 12 € — e\u0301t\u00e9')).toBe('Société Œuvre « à ç è » ’ 12 € — été');
    expect(winAnsiSafe('VUL ≤ 3,5 t, 1\u202f234 − 5')).toBe('VUL <= 3,5 t, 1\u00a0234 - 5');
    expect(winAnsiSafe('東京 🚚')).toBe('?? ?');
  });

  it.each([
    ['Transports Martin', 'transports-martin'],
    ['BTP Durand & Fils — Œuvres', 'btp-durand-fils-oeuvres'],
    ['../../etc/passwd"', 'etc-passwd'],
    ['東京', 'organisation'],
  ])('%s → %s', (title, slug) => {
    expect(fileSlug(title)).toBe(slug);
  });
});
