import type { Alert } from '@flotte/contract';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { authStore } from '../../../lib/auth-store';
import { makeUser, page } from '../../../test/fixtures';
import { mockFetch } from '../../../test/mock-fetch';
import { renderRoutes } from '../../../test/render';
import { AlertsPage } from './alerts-page';

const WRITTEN: Alert = {
  uuid: 'a1000000-0000-4000-8000-000000000001',
  source: 'written',
  rule: null,
  severity: 'attention',
  title: 'Hiver : préparez vos véhicules',
  body: 'Avant le **1er décembre** :\n\n- pneus hiver\n\n<script>alert(1)</script> [piège](javascript:alert(1))',
  link: null,
  publishedAt: '2026-11-24T08:00:00.000Z',
  closedAt: null,
  read: false,
};
const AUTOMATIC: Alert = {
  uuid: 'a1000000-0000-4000-8000-000000000002',
  source: 'automatic',
  rule: 'bodilyInjury',
  severity: 'urgent',
  title: 'Sinistre corporel du 20/11/2026 (AB-123-CD)',
  body: 'Le sinistre du 20/11/2026 (AB-123-CD) a fait au moins un blessé.',
  link: { href: '/sinisters?hasHumanInjury=true&startDate=2026-11-20&endDate=2026-11-20', label: 'Voir le sinistre' },
  publishedAt: '2026-11-25T08:00:00.000Z',
  closedAt: null,
  read: true,
};

function renderAlerts(path = '/alerts') {
  const api = mockFetch([
    { path: '/api/alert', respond: (request) => ({ body: page(new URL(request.url).searchParams.get('severity') === 'urgent' ? [AUTOMATIC] : [AUTOMATIC, WRITTEN]) }) },
    { path: '/api/alert/unread-count', body: { count: 1 } },
    { method: 'POST', path: `/api/alert/${WRITTEN.uuid}/read`, status: 204 },
  ]);
  authStore.setSession('token', makeUser({ roles: ['USER'] }));
  return { ...renderRoutes([{ path: 'alerts', element: <AlertsPage /> }, { path: 'sinisters', element: <h1>Sinistres</h1> }], path), api };
}

describe('/alerts', () => {
  it('lists the alerts, the unread one marked in words, the written one as safe Markdown', async () => {
    renderAlerts();
    expect(await screen.findByRole('heading', { level: 1, name: 'Alertes prévention' })).toBeInTheDocument();
    const written = await screen.findByRole('article', { name: WRITTEN.title });
    expect(within(written).getByText('Non lue')).toBeInTheDocument();
    expect(within(written).getByText('Attention')).toBeInTheDocument();
    expect(within(written).getByText('1er décembre').tagName).toBe('STRONG');
    // Raw HTML shows as text, a javascript: link is no link.
    expect(written.querySelector('script')).toBeNull();
    expect(within(written).queryByRole('link', { name: 'piège' })).not.toBeInTheDocument();
    expect(within(written).getByText(/Message de votre courtier/)).toBeInTheDocument();
    const automatic = screen.getByRole('article', { name: AUTOMATIC.title });
    expect(within(automatic).queryByText('Non lue')).not.toBeInTheDocument();
    expect(within(automatic).getByText(/Alerte automatique · Sinistre corporel/)).toBeInTheDocument();
    expect(within(automatic).getByRole('link', { name: 'Voir le sinistre' })).toHaveAttribute('href', AUTOMATIC.link!.href);
    expect(screen.getByText(/1 alerte en cours non lue\./)).toBeInTheDocument();
  });

  it('marks one read', async () => {
    const { api } = renderAlerts();
    const written = await screen.findByRole('article', { name: WRITTEN.title });
    await userEvent.setup().click(within(written).getByRole('button', { name: 'Marquer comme lue' }));
    await screen.findByRole('article', { name: WRITTEN.title });
    expect(api.calls.some((call) => call.method === 'POST' && call.url.endsWith(`/api/alert/${WRITTEN.uuid}/read`))).toBe(true);
  });

  it('filters by severity through the URL', async () => {
    const { api, router } = renderAlerts('/alerts?severity=urgent');
    expect(await screen.findByRole('article', { name: AUTOMATIC.title })).toBeInTheDocument();
    expect(screen.queryByRole('article', { name: WRITTEN.title })).not.toBeInTheDocument();
    expect(api.calls.some((call) => new URL(call.url).searchParams.get('severity') === 'urgent')).toBe(true);
    expect(router.state.location.search).toBe('?severity=urgent');
  });
});
