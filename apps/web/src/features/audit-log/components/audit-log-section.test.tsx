import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { AuditEntry } from '@flotte/contract';
import { describe, expect, it } from 'vitest';
import { authStore } from '../../../lib/auth-store';
import { makeUser, page } from '../../../test/fixtures';
import { mockFetch } from '../../../test/mock-fetch';
import { renderWithProviders } from '../../../test/render';
import { AuditLogSection } from './audit-log-section';

const helene = { uuid: '5d1c2b3a-0000-4000-8000-000000000009', name: 'Hélène Lefèvre', email: 'helene@demo.fr', role: 'USER', roleLabel: 'Utilisateur' };
const broker = { uuid: '5d1c2b3a-0000-4000-8000-000000000010', name: 'Sophie Courtier', email: 'sophie@courtier.fr', role: 'SUPERADMIN', roleLabel: 'Superadmin' };
const archived: AuditEntry = {
  id: '12',
  occurredAt: '2026-11-26T09:30:00.000Z',
  actor: helene,
  entity: 'vehicule',
  entityLabel: 'Véhicule',
  record: '6a000000-0000-4000-8000-000000000001',
  label: 'AB-123-CD',
  action: 'archive',
  actionLabel: 'Archivage',
  changes: [
    { field: 'archived_at', label: 'Archivé le', before: null, after: '26/11/2026' },
    { field: 'exit_date', label: 'Sortie', before: null, after: '31/10/2026' },
  ],
};
const created: AuditEntry = {
  ...archived,
  id: '11',
  actor: broker,
  action: 'insert',
  actionLabel: 'Création',
  changes: [{ field: 'brand', label: 'Marque', before: null, after: 'Peugeot' }],
};

function renderSection(roles: ('ADMIN' | 'USER')[] = ['ADMIN']) {
  authStore.setSession('token', makeUser({ roles }));
  return renderWithProviders(<AuditLogSection />);
}

describe('<AuditLogSection />', () => {
  it('shows an administrator who did what, newest first, field by field', async () => {
    mockFetch([
      { path: '/api/audit-log', body: page([archived, created]) },
      { path: '/api/audit-log/actors', body: { data: [helene, broker] } },
    ]);
    renderSection();
    expect(await screen.findByRole('heading', { name: 'Journal d’activité' })).toBeInTheDocument();
    const table = await screen.findByRole('table', { name: 'Journal d’activité' });
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows[0]).toHaveTextContent(/Hélène Lefèvre\s*Utilisateur/);
    expect(rows[0]).toHaveTextContent('Archivage');
    expect(rows[0]).toHaveTextContent(/Véhicule\s*AB-123-CD/);
    expect(within(rows[0]!).getByRole('list', { name: 'Détails : archivage AB-123-CD' })).toHaveTextContent('Sortie : (vide) → 31/10/2026');
    expect(rows[1]).toHaveTextContent(/Sophie Courtier\s*Superadmin/);
    expect(rows[1]).toHaveTextContent('Marque : Peugeot');
  });

  it('sends the filters to the API, back to the first page', async () => {
    const { calls } = mockFetch([
      { path: '/api/audit-log', body: page([archived]) },
      { path: '/api/audit-log/actors', body: { data: [helene, broker] } },
    ]);
    renderSection();
    await screen.findByRole('table', { name: 'Journal d’activité' });
    const ui = userEvent.setup();
    await ui.click(screen.getByRole('combobox', { name: 'Élément' }));
    await ui.click(await screen.findByRole('option', { name: 'Véhicule' }));
    await ui.click(screen.getByRole('combobox', { name: 'Auteur' }));
    await ui.click(await screen.findByRole('option', { name: 'Hélène Lefèvre' }));
    await ui.type(screen.getByRole('searchbox', { name: 'Rechercher' }), 'AB-123');
    await waitFor(() => {
      const last = new URL(calls.filter((c) => new URL(c.url).pathname === '/api/audit-log').at(-1)!.url);
      expect(Object.fromEntries(last.searchParams)).toEqual({ page: '1', limit: '20', entity: 'vehicule', actor: helene.uuid, search: 'AB-123' });
    });
  });

  it('says so when nothing is recorded yet', async () => {
    mockFetch([
      { path: '/api/audit-log', body: page([]) },
      { path: '/api/audit-log/actors', body: { data: [] } },
    ]);
    renderSection();
    expect(await screen.findByText('Aucune écriture enregistrée pour l’instant.')).toBeInTheDocument();
  });

  it('is not shown to a plain member, and asks nothing of the API', async () => {
    const { calls } = mockFetch([]);
    const { container } = renderSection(['USER']);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(container).toBeEmptyDOMElement();
    expect(calls).toEqual([]);
  });
});
