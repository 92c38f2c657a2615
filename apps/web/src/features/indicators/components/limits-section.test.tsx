import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { DashboardConfigSchema, UpdateDashboardConfigBodySchema } from '@flotte/contract';
import { SnackbarHost } from '../../../components/snackbar/snackbar-host';
import { authStore } from '../../../lib/auth-store';
import { apiErrorBody, mockFetch } from '../../../test/mock-fetch';
import { makeUser } from '../../../test/fixtures';
import { renderWithProviders } from '../../../test/render';
import { LimitsSection } from './limits-section';

const DEFAULTS = DashboardConfigSchema.parse({ lossRatioPercentage: 70, claimFrequencyPercentage: 20 });

function renderSection(roles: ('ADMIN' | 'USER' | 'ROOT')[]) {
  authStore.setSession('token', makeUser({ roles }));
  return renderWithProviders(
    <>
      <LimitsSection />
      <SnackbarHost />
    </>,
  );
}

describe('<LimitsSection />', () => {
  it('a member reads both thresholds in a section titled Limites, without a form', async () => {
    mockFetch([{ path: '/api/dashboard/config', body: DEFAULTS }]);
    renderSection(['USER']);
    const section = screen.getByRole('region', { name: 'Limites' });
    expect(within(section).getByRole('heading', { level: 2, name: 'Limites' })).toBeInTheDocument();
    expect(await within(section).findByText('70 %')).toBeInTheDocument();
    expect(within(section).getByText('20 %')).toBeInTheDocument();
    expect(within(section).getByText(/en orange à moins de 10 points/)).toBeInTheDocument();
    expect(within(section).queryByRole('textbox')).not.toBeInTheDocument();
  });

  it('an administrator changes them; the answer becomes the shown value', async () => {
    const { calls } = mockFetch([
      { path: '/api/dashboard/config', body: DEFAULTS },
      { method: 'PUT', path: '/api/dashboard/config', body: DashboardConfigSchema.parse({ lossRatioPercentage: 65, claimFrequencyPercentage: 15 }) },
    ]);
    renderSection(['ADMIN']);
    const lossRatio = await screen.findByRole('textbox', { name: /Limite du S\/P/ });
    expect(lossRatio).toHaveValue('70');
    await userEvent.clear(lossRatio);
    await userEvent.type(lossRatio, '65');
    const frequency = screen.getByRole('textbox', { name: /Limite de la fréquence/ });
    await userEvent.clear(frequency);
    await userEvent.type(frequency, '15');
    await userEvent.click(screen.getByRole('button', { name: 'Enregistrer les limites' }));
    expect(await screen.findByText('Limites enregistrées')).toBeInTheDocument();
    const put = calls.find((c) => c.method === 'PUT')!;
    expect(UpdateDashboardConfigBodySchema.parse(await put.clone().json())).toEqual({ lossRatioPercentage: 65, claimFrequencyPercentage: 15 });
  });

  it('refuses a bad threshold with the contract’s French message and sends nothing', async () => {
    const { calls } = mockFetch([{ path: '/api/dashboard/config', body: DEFAULTS }]);
    renderSection(['ROOT']);
    const frequency = await screen.findByRole('textbox', { name: /Limite de la fréquence/ });
    await userEvent.clear(frequency);
    await userEvent.type(frequency, '12,5');
    await userEvent.click(screen.getByRole('button', { name: 'Enregistrer les limites' }));
    expect(await screen.findByText('La limite de la fréquence doit être un nombre entier')).toBeInTheDocument();
    expect(calls.filter((c) => c.method === 'PUT')).toHaveLength(0);
  });

  it('shows a refused save in the snackbar', async () => {
    mockFetch([
      { path: '/api/dashboard/config', body: DEFAULTS },
      { method: 'PUT', path: '/api/dashboard/config', status: 403, body: { ...apiErrorBody(403, 'Seul un administrateur peut modifier les limites'), error: 'Forbidden' } },
    ]);
    renderSection(['ADMIN']);
    const lossRatio = await screen.findByRole('textbox', { name: /Limite du S\/P/ });
    await userEvent.clear(lossRatio);
    await userEvent.type(lossRatio, '80');
    await userEvent.click(screen.getByRole('button', { name: 'Enregistrer les limites' }));
    await waitFor(() => expect(screen.getByText('Seul un administrateur peut modifier les limites')).toBeInTheDocument());
  });
});
