import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { makeSinister, page } from '../../../test/fixtures';
import { apiErrorBody, mockFetch } from '../../../test/mock-fetch';
import { renderWithProviders } from '../../../test/render';
import { LinkedSinisters } from './linked-sinisters';

const VEHICULE = 'e0000000-0000-4000-8000-000000000001';
const DRIVER = 'd0000000-0000-4000-8000-000000000901';

/** GET /api/sinister?vehicule=…&limit=1 as the API answers it: one row, and the total. */
function countAnswer(total: number, totalIsCapped?: boolean) {
  return { ...page(total === 0 ? [] : [makeSinister()]), nbOfPages: total, total, ...(totalIsCapped ? { totalIsCapped } : {}), sums: { totalCost: 0 } };
}

describe('<LinkedSinisters />', () => {
  it('says nothing is lost when no claim refers to the driver', async () => {
    const { calls } = mockFetch([{ path: '/api/sinister', body: countAnswer(0) }]);
    renderWithProviders(<LinkedSinisters driver={DRIVER} />);
    expect(screen.getByText(/Recherche des sinistres liés à ce conducteur/)).toBeInTheDocument();
    expect(await screen.findByText('Aucun sinistre ne fait référence à ce conducteur.')).toBeInTheDocument();
    expect(Object.fromEntries(new URL(calls[0]!.url).searchParams)).toEqual({ driver: DRIVER, withArchived: 'true', page: '1', limit: '1' });
  });

  it('counts the claims of a vehicle and says they are kept with their plate', async () => {
    mockFetch([{ path: '/api/sinister', body: countAnswer(3) }]);
    renderWithProviders(<LinkedSinisters vehicule={VEHICULE} />);
    expect(
      await screen.findByText('3 sinistres font référence à ce véhicule : ils sont conservés, sans lien vers lui (leur immatriculation reste inscrite).'),
    ).toBeInTheDocument();
  });

  it('says "plus de 1 000" when the count is capped', async () => {
    mockFetch([{ path: '/api/sinister', body: countAnswer(1000, true) }]);
    renderWithProviders(<LinkedSinisters vehicule={VEHICULE} />);
    expect(await screen.findByText(/^Plus de 1 000 sinistres font référence à ce véhicule/)).toBeInTheDocument();
  });

  it('says the count could not be checked, without blocking anything', async () => {
    mockFetch([{ path: '/api/sinister', status: 404, body: apiErrorBody(404, 'Introuvable') }]);
    renderWithProviders(<LinkedSinisters driver={DRIVER} />);
    expect(await screen.findByText('Le nombre de sinistres liés à ce conducteur n’a pas pu être vérifié. S’il y en a, ils sont conservés.')).toBeInTheDocument();
  });
});
