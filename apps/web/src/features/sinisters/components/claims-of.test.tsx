import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { makeSinister, registerPage } from '../../../test/fixtures';
import { apiErrorBody, mockFetch } from '../../../test/mock-fetch';
import { renderWithProviders } from '../../../test/render';
import { ClaimsOf, claimsSummary } from './claims-of';

const VEHICULE = 'e0000000-0000-4000-8000-000000000001';
const DRIVER = 'd0000000-0000-4000-8000-000000000901';

describe('<ClaimsOf />', () => {
  it('lists a vehicle’s latest claims with their status and cost, and the count and total of all of them', async () => {
    const claims = [
      makeSinister({ sinisterDate: '2026-03-14', status: 'inProgress', paidAmount: 500, reserveAmount: 734.56, totalCost: 1234.56 }),
      makeSinister({ sinisterDate: '2025-11-02', status: 'refused', closedAt: '2025-12-01', paidAmount: 0, reserveAmount: 0, totalCost: 0 }),
    ];
    const { calls } = mockFetch([{ path: '/api/sinister', body: registerPage(claims, { total: 7, sums: { totalCost: 18250.4 } }) }]);
    renderWithProviders(<ClaimsOf vehicule={VEHICULE} />);
    const section = await screen.findByRole('region', { name: 'Sinistres' });
    expect(await within(section).findByText('7 sinistres · 18 250,40 €')).toBeInTheDocument();
    const items = within(section).getAllByRole('listitem');
    expect(items).toHaveLength(2);
    expect(items[0]).toHaveTextContent('14/03/2026');
    expect(within(items[0]!).getByText('En cours')).toBeInTheDocument();
    expect(items[0]).toHaveTextContent('1 234,56 €');
    expect(within(items[1]!).getByText('Refusé')).toBeInTheDocument();
    expect(within(section).getByText('Et 5 autres, dans l’écran Sinistres.')).toBeInTheDocument();
    const query = Object.fromEntries(new URL(calls[0]!.url).searchParams);
    expect(query).toMatchObject({ vehicule: VEHICULE, limit: '5', sortBy: '-sinisterDate' });
  });

  it('says when a driver has no claim, and when they could not be loaded', async () => {
    mockFetch([{ path: '/api/sinister', body: registerPage([], { sums: { totalCost: 0 } }) }]);
    const { unmount } = renderWithProviders(<ClaimsOf driver={DRIVER} />);
    expect(await screen.findByText('Aucun sinistre.')).toBeInTheDocument();
    unmount();
    mockFetch([{ path: '/api/sinister', status: 403, body: apiErrorBody(403, 'Accès refusé') }]);
    renderWithProviders(<ClaimsOf driver={DRIVER} />);
    expect(await screen.findByText('Les sinistres n’ont pas pu être chargés.')).toBeInTheDocument();
  });

  it('words the summary in French: one claim singular, a capped count', () => {
    expect(claimsSummary(1, false, 250).replace(/\s/g, ' ')).toBe('1 sinistre · 250,00 €');
    expect(claimsSummary(1000, true, 1e6).replace(/\s/g, ' ')).toBe('Plus de 1 000 sinistres · 1 000 000,00 €');
  });
});
