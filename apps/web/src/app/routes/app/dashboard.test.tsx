import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { addDays, addMonths } from '../../../features/dashboard/utils/dashboard-window';
import { authStore } from '../../../lib/auth-store';
import { apiErrorBody, mockFetch, type MockRoute } from '../../../test/mock-fetch';
import { makeUser } from '../../../test/fixtures';
import { renderRoutes } from '../../../test/render';
import { HalfDifferenceListSchema, todayIso, TopDriversSchema } from '@flotte/contract';
import DashboardRoute from './dashboard';
import { onAPhone } from '../../../test/media';

const today = todayIso();
const start = addMonths(today, -6);
const PERIOD = { indicatorUuid: '8a1f2c3d-0000-4000-8000-000000000001', startDate: addMonths(today, -2), endDate: addMonths(addMonths(today, -2), 12), countedOn: today, isCurrent: true };
// DOMAIN.md's examples: 78 000 € of claims over 120 000 € of premiums; 50 vehicles at start, 58 now, 40 000 €.
const CURRENT = { ...PERIOD, n0: 50, n1: 58, unitPremium: 800, halfDifference: 4, regularisation: 3200 };

function routes(overrides: MockRoute[] = []): MockRoute[] {
  const base: MockRoute[] = [
    { path: '/api/dashboard/config', body: { lossRatioPercentage: 70, claimFrequencyPercentage: 20 } },
    {
      path: '/api/dashboard/loss-ratio',
      respond: (request) => {
        const q = new URL(request.url).searchParams;
        const declared = q.get('isDeclared') === 'true';
        const cost = declared ? 90_000 : 78_000;
        return { body: { startDate: q.get('startDate'), endDate: q.get('endDate'), costOfClaims: cost, earnedPremiums: 120_000, ratio: (cost * 100) / 120_000 } };
      },
    },
    { path: '/api/dashboard/claim-frequency', body: { indicatorUuid: PERIOD.indicatorUuid, claims: 12, motors: 240, frequency: 5 } },
    { path: '/api/dashboard/current-half-difference', body: CURRENT },
    { path: '/api/dashboard/half-differences', body: [CURRENT] },
    { path: '/api/dashboard/claims-by-month', body: [] },
    { path: '/api/dashboard/claims-by-guarantee', body: [] },
    { path: '/api/dashboard/claims-by-responsibility', body: [] },
    { path: '/api/dashboard/top-drivers', body: [] },
    // Unavailable: its chart would load MUI X Charts, which jsdom cannot lay out (the e2e draws it).
    { path: '/api/dashboard/fleet-size', respond: () => ({ status: 503, body: apiErrorBody(503, 'Service indisponible') }) },
  ];
  return [...overrides, ...base];
}

function renderDashboard(path = '/dashboard') {
  authStore.setSession('token', makeUser({ roles: ['USER'] }));
  return renderRoutes([{ path: '/dashboard', element: <DashboardRoute /> }], path);
}

const card = (title: string) => screen.getByRole('article', { name: title });

describe('/dashboard', () => {
  it('shows each figure against its limit in words, with its link to the claims or vehicles', async () => {
    mockFetch(routes());
    renderDashboard();
    expect(screen.getByRole('heading', { level: 1, name: 'Tableau de bord' })).toBeInTheDocument();

    const lossRatio = card('S/P (sinistres / primes)');
    const link = await within(lossRatio).findByRole('link', { name: /^S\/P 65,0/ });
    expect(link).toHaveTextContent(/^65,0\s%$/);
    expect(link).toHaveAttribute('href', `/sinisters?startDate=${start}&endDate=${today}`);
    // 65 % against 70 %: within 10 points.
    expect(within(lossRatio).getByText('Proche de la limite')).toBeInTheDocument();

    const frequency = card('Fréquence des sinistres');
    // 12 / 240 = 5 % against 20 %: more than 10 points below.
    expect(await within(frequency).findByText('Sous la limite')).toBeInTheDocument();
    expect(within(frequency).getByRole('link')).toHaveAttribute('href', `/sinisters?startDate=${PERIOD.startDate}&endDate=${PERIOD.endDate}`);

    const vehicles = card('Demi-différence (véhicules)');
    expect(within(vehicles).getByRole('link')).toHaveTextContent('+4');
    expect(within(vehicles).getByRole('link')).toHaveAttribute('href', `/vehicules?start=${today}&end=${today}`);
    expect(within(card('Demi-différence (euros)')).getByRole('link')).toHaveTextContent(/^\+3\s200,00\s€$/);
    expect(within(card('Demi-différence (euros)')).getByText('À payer à l’assureur')).toBeInTheDocument();
  });

  it('keeps the declared filter in the URL and asks the API for it', async () => {
    const { calls } = mockFetch(routes());
    const { router } = renderDashboard();
    await within(card('S/P (sinistres / primes)')).findByText('Proche de la limite');
    await userEvent.click(screen.getByRole('button', { name: 'Déclarés' }));
    await waitFor(() => expect(new URLSearchParams(router.state.location.search).get('isDeclared')).toBe('true'));
    // 90 000 / 120 000 = 75 %: above the 70 % limit.
    expect(await within(card('S/P (sinistres / primes)')).findByText('Au-dessus de la limite')).toBeInTheDocument();
    expect(calls.some((r) => r.url.includes('/api/dashboard/loss-ratio') && new URL(r.url).searchParams.get('isDeclared') === 'true')).toBe(true);
    expect(within(card('S/P (sinistres / primes)')).getByRole('link')).toHaveAttribute('href', `/sinisters?startDate=${start}&endDate=${today}&showDeclared=true`);
  });

  it('says to enter a period first, with the button to do it, when the organization has none', async () => {
    mockFetch(
      routes([
        { path: '/api/dashboard/half-differences', body: [] },
        { path: '/api/dashboard/current-half-difference', body: null },
        { path: '/api/dashboard/claim-frequency', status: 404, body: apiErrorBody(404, "Aucune période ne contient la date d'aujourd'hui") },
        {
          path: '/api/dashboard/loss-ratio',
          body: { startDate: start, endDate: today, costOfClaims: 0, earnedPremiums: 0, ratio: null },
        },
      ]),
    );
    renderDashboard();
    expect(await screen.findByText(/Saisissez d’abord votre contrat/)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Saisir une période' })).toHaveAttribute('href', '/parameters');
    expect(await within(card('S/P (sinistres / primes)')).findByText('Non calculable')).toBeInTheDocument();
    // A missing period is a state, not a failure.
    expect(screen.queryByText(/n’ont pas pu être chargés/)).not.toBeInTheDocument();
  });

  describe('the half-differences and the top drivers', () => {
    const PREVIOUS = { ...CURRENT, indicatorUuid: '8a1f2c3d-0000-4000-8000-000000000002', startDate: addMonths(PERIOD.startDate, -12), endDate: addMonths(PERIOD.startDate, -12), isCurrent: false, n0: 44, n1: 50, halfDifference: 3, unitPremium: 750, regularisation: 2250 };
    const periods = HalfDifferenceListSchema.parse([CURRENT, PREVIOUS]);
    const drivers = TopDriversSchema.parse([
      { driverUuid: 'd0000000-0000-4000-8000-0000000000a1', firstName: 'Jean', lastName: 'Martin', atFaultClaims: 3, cost: 12_450.5 },
      { driverUuid: 'd0000000-0000-4000-8000-0000000000a2', firstName: 'Jean', lastName: 'Martin', atFaultClaims: 1, cost: 800 },
    ]);
    const twelveMonths = `startDate=${addDays(addMonths(today, -12), 1)}&endDate=${today}`;
    const tableRoutes = () => routes([{ path: '/api/dashboard/half-differences', body: periods }, { path: '/api/dashboard/top-drivers', body: drivers }]);

    it('are tables from tablet width; each driver opens their own at-fault claims (namesakes apart)', async () => {
      mockFetch(tableRoutes());
      renderDashboard();
      const table = await screen.findByRole('table', { name: 'Demi-différence par période' });
      expect(within(table).getAllByRole('row')).toHaveLength(3);
      const drivers = await screen.findByRole('table', { name: 'Conducteurs les plus sinistrés' });
      const links = within(drivers).getAllByRole('link');
      expect(links.map((link) => link.getAttribute('href'))).toEqual([
        `/sinisters?${twelveMonths}&responsible=me&driver=d0000000-0000-4000-8000-0000000000a1`,
        `/sinisters?${twelveMonths}&responsible=me&driver=d0000000-0000-4000-8000-0000000000a2`,
      ]);
      expect(links[0]).toHaveAccessibleName('3 sinistres responsables de Jean Martin');
      expect(screen.queryByRole('list', { name: 'Conducteurs les plus sinistrés' })).not.toBeInTheDocument();
    });

    it('are cards on a phone, each figure with its label: nothing scrolls sideways', async () => {
      onAPhone();
      mockFetch(tableRoutes());
      renderDashboard();
      const list = await screen.findByRole('list', { name: 'Demi-différence par période' });
      const cards = within(list).getAllByRole('listitem');
      expect(cards).toHaveLength(2);
      const text = (element: HTMLElement) => element.textContent?.replace(/\s/g, ' ');
      const frDate = (iso: string) => iso.split('-').reverse().join('/');
      expect(text(cards[0]!)).toBe(
        `Du ${frDate(CURRENT.startDate)} au ${frDate(CURRENT.endDate)}En coursVéhicules au début (N0)50Véhicules à la fin (N1)58Demi-différence+4Prime unitaire800,00 €Régularisation+3 200,00 €`,
      );
      const drivers = within(await screen.findByRole('list', { name: 'Conducteurs les plus sinistrés' })).getAllByRole('listitem');
      expect(drivers.map(text)).toEqual(['Jean MartinSinistres responsables3Coût12 450,50 €', 'Jean MartinSinistres responsables1Coût800,00 €']);
      expect(within(drivers[1]!).getByRole('link', { name: '1 sinistre responsable de Jean Martin' })).toHaveAttribute(
        'href',
        `/sinisters?${twelveMonths}&responsible=me&driver=d0000000-0000-4000-8000-0000000000a2`,
      );
      expect(screen.queryByRole('table')).not.toBeInTheDocument();
    });
  });
});
