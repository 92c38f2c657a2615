import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { snackbar } from '../../../components/snackbar/snackbar';
import { SnackbarHost } from '../../../components/snackbar/snackbar-host';
import { authStore } from '../../../lib/auth-store';
import { makeUser } from '../../../test/fixtures';
import { apiErrorBody, mockFetch } from '../../../test/mock-fetch';
import { renderWithProviders } from '../../../test/render';
import { TwoFactorSection } from './two-factor-section';

const SVG = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><path d="M0 0h1v1H0z"/></svg>';
const OFF = { enabled: false, enabledAt: null, recoveryCodesLeft: 0, required: false };
const ON = { enabled: true, enabledAt: '2026-11-20T09:00:00.000Z', recoveryCodesLeft: 7, required: false };
const CODES = Array.from({ length: 10 }, (_, i) => `abcd${i}-2345${i}`);

function renderSection() {
  authStore.setSession('jeton', makeUser());
  renderWithProviders(
    <>
      <TwoFactorSection />
      <SnackbarHost />
    </>,
  );
  return userEvent.setup();
}

afterEach(() => {
  snackbar.hide();
  authStore.reset();
});

describe('<TwoFactorSection />', () => {
  it('sets it up: QR code and key, a code to confirm (a wrong one on the field), then the ten recovery codes', async () => {
    let enabled = false;
    let tries = 0;
    const { calls } = mockFetch([
      { method: 'GET', path: '/api/auth/totp', respond: () => ({ body: enabled ? { ...ON, recoveryCodesLeft: 10 } : OFF }) },
      { method: 'POST', path: '/api/auth/totp/setup', body: { secret: 'JBSW Y3DP EHPK 3PXP', otpauthUrl: 'otpauth://totp/x', qrCodeSvg: SVG } },
      {
        method: 'POST',
        path: '/api/auth/totp/enable',
        respond: () => {
          if (tries++ === 0) {
            return { status: 400, body: apiErrorBody(400, 'Code incorrect ou déjà utilisé', [{ path: 'code', message: 'Code incorrect ou déjà utilisé' }]) };
          }
          enabled = true;
          return { body: { recoveryCodes: CODES } };
        },
      },
    ]);
    const ui = renderSection();
    const section = await screen.findByRole('region', { name: 'Double authentification' });
    expect(await within(section).findByText(/^Désactivée/)).toBeInTheDocument();
    await ui.click(screen.getByRole('button', { name: 'Activer la double authentification' }));

    expect(await screen.findByRole('img', { name: 'QR code à scanner avec votre application d’authentification' })).toHaveAttribute('src', expect.stringContaining('data:image/svg+xml'));
    expect(screen.getByTestId('totp-key')).toHaveTextContent('JBSW Y3DP EHPK 3PXP');
    await ui.click(screen.getByRole('button', { name: 'Activer' }));
    expect(await screen.findByText('Le code est obligatoire')).toBeInTheDocument();
    await ui.type(screen.getByLabelText(/^Code à 6 chiffres/), '000000');
    await ui.click(screen.getByRole('button', { name: 'Activer' }));
    expect(await screen.findByText('Double authentification non activée')).toBeInTheDocument();
    expect(screen.getByLabelText(/^Code à 6 chiffres/)).toHaveAccessibleDescription('Code incorrect ou déjà utilisé');

    await ui.clear(screen.getByLabelText(/^Code à 6 chiffres/));
    await ui.type(screen.getByLabelText(/^Code à 6 chiffres/), '123456');
    await ui.click(screen.getByRole('button', { name: 'Activer' }));
    const list = await screen.findByRole('list', { name: 'Codes de secours' });
    expect(within(list).getAllByRole('listitem')).toHaveLength(10);
    expect(screen.getByRole('button', { name: 'Copier les codes' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Télécharger (.txt)' })).toBeInTheDocument();
    const enableCalls = calls.filter((call) => call.url.endsWith('/api/auth/totp/enable'));
    expect(await enableCalls[1]!.json()).toEqual({ code: '123456' });

    await ui.click(screen.getByRole('button', { name: 'J’ai noté mes codes' }));
    expect(await screen.findByText(/^Activée depuis le 20\/11\/2026\. Codes de secours restants : 10 sur 10\./)).toBeInTheDocument();
  });

  it('turns it off with the password and a code', async () => {
    let enabled = true;
    const { calls } = mockFetch([
      { method: 'GET', path: '/api/auth/totp', respond: () => ({ body: enabled ? ON : OFF }) },
      {
        method: 'POST',
        path: '/api/auth/totp/disable',
        respond: () => {
          enabled = false;
          return { status: 204 };
        },
      },
    ]);
    const ui = renderSection();
    expect(await screen.findByText(/Codes de secours restants : 7 sur 10/)).toBeInTheDocument();
    await ui.click(screen.getByRole('button', { name: 'Désactiver' }));
    await ui.click(screen.getByRole('button', { name: 'Désactiver' }));
    expect(await screen.findByText('Le mot de passe est obligatoire')).toBeInTheDocument();
    await ui.type(screen.getByLabelText(/^Mot de passe actuel/), 'Demo1234!');
    await ui.type(screen.getByLabelText(/^Code à 6 chiffres/), '654321');
    await ui.click(screen.getByRole('button', { name: 'Désactiver' }));
    expect(await screen.findByText('Double authentification désactivée')).toBeInTheDocument();
    expect(await screen.findByText(/^Désactivée\./)).toBeInTheDocument();
    const disable = calls.find((call) => call.url.endsWith('/disable'));
    expect(await disable!.json()).toEqual({ password: 'Demo1234!', code: '654321' });
  });

  it('offers no way to turn it off when the environment requires it; renews the recovery codes with a code', async () => {
    const { calls } = mockFetch([
      { method: 'GET', path: '/api/auth/totp', body: { ...ON, required: true } },
      { method: 'POST', path: '/api/auth/totp/recovery-codes', body: { recoveryCodes: CODES } },
    ]);
    const ui = renderSection();
    expect(await screen.findByText('Votre espace l’exige pour ses superadministrateurs : elle ne peut pas être désactivée.')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Désactiver' })).not.toBeInTheDocument();
    await ui.click(screen.getByRole('button', { name: 'Nouveaux codes de secours' }));
    await ui.type(screen.getByLabelText(/^Code à 6 chiffres/), '111111');
    await ui.click(screen.getByRole('button', { name: 'Générer de nouveaux codes' }));
    expect(await screen.findByRole('list', { name: 'Codes de secours' })).toHaveTextContent('abcd0-23450');
    const renew = calls.find((call) => call.url.endsWith('/recovery-codes'));
    expect(await renew!.json()).toEqual({ code: '111111' });
  });
});
