import type { Environment } from '@flotte/contract';
import { configure, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { SnackbarHost } from '../../../components/snackbar/snackbar-host';
import { snackbar } from '../../../components/snackbar/snackbar';
import { authStore } from '../../../lib/auth-store';
import { makeUser } from '../../../test/fixtures';
import { apiErrorBody, mockFetch, type MockRoute } from '../../../test/mock-fetch';
import { renderRoutes } from '../../../test/render';
import SuperadminSettingsRoute from './settings';

configure({ asyncUtilTimeout: 4000 });

afterEach(() => {
  snackbar.hide();
  authStore.reset();
});

const ENV_UUID = '3e000000-0000-4000-8000-000000000001';
const ENVIRONMENT: Environment = {
  uuid: ENV_UUID,
  title: 'Cabinet Horizon',
  logo: null,
  refererEmail: 'contact@horizon.fr',
  bookingUrl: 'https://rdv.horizon.fr/visio',
  tiers: [],
  environmentUsers: [],
  organizations: [],
  freeOrganizations: 2,
  stripeProductId: null,
  requireSuperadminTotp: false,
};
const superadmin = makeUser({
  roles: ['SUPERADMIN'],
  firstName: 'Hélène',
  lastName: 'Garnier',
  description: 'Votre courtière flotte',
  phone: '+33612345678',
  currentOrganizationUser: null,
  currentEnvironmentUser: { uuid: '3e000000-0000-4000-8000-0000000000e1', environment: { uuid: ENV_UUID, title: 'Cabinet Horizon' } },
});

function routesFor(options: { environment?: Environment; totp?: boolean; digest?: boolean; extra?: MockRoute[] } = {}) {
  return [
    ...(options.extra ?? []),
    { path: '/api/environment/current', body: options.environment ?? ENVIRONMENT },
    { path: '/api/auth/totp', body: { enabled: options.totp ?? false, enabledAt: null, recoveryCodesLeft: 0, required: false } },
    { path: `/api/environment/${ENV_UUID}/alert-digest`, body: { enabled: options.digest ?? true } },
  ];
}

function render(user = superadmin) {
  authStore.setSession('token', user);
  return renderRoutes(
    [{ path: '/superadmin/settings', element: (<><SuperadminSettingsRoute /><SnackbarHost /></>) }],
    '/superadmin/settings',
  );
}

const section = (name: string) => screen.getByRole('region', { name });

describe('/superadmin/settings', () => {
  it('shows the environment, the card as clients see it, the two-factor rule and the digest, in French', async () => {
    mockFetch(routesFor());
    render();
    expect(await screen.findByRole('heading', { level: 1, name: 'Paramètres' })).toBeInTheDocument();
    const environment = await screen.findByRole('region', { name: 'Environnement' });
    expect(within(environment).getByLabelText(/Nom de l’environnement/)).toHaveValue('Cabinet Horizon');
    expect(within(environment).getByLabelText('E-mail du référent')).toHaveValue('contact@horizon.fr');
    expect(within(environment).getByLabelText('Lien de prise de rendez-vous')).toHaveValue('https://rdv.horizon.fr/visio');
    const preview = within(section('Votre carte')).getByTestId('apercu-carte');
    expect(preview).toHaveTextContent('Votre interlocuteur');
    expect(preview).toHaveTextContent('Hélène Garnier');
    expect(preview).toHaveTextContent('Votre courtière flotte');
    expect(within(preview).getByRole('link', { name: /06 12 34 56 78/ })).toHaveAttribute('href', 'tel:+33612345678');
    expect(within(section('Votre carte')).getByLabelText(/Prénom/)).toHaveValue('Hélène');
    expect(await within(section('Récapitulatif quotidien des alertes')).findByRole('switch', { name: 'Recevoir le récapitulatif par e-mail' })).toBeChecked();
    expect(within(section('Logo')).getByRole('button', { name: 'Choisir un logo' })).toBeInTheDocument();
  });

  it('shows the cabinet’s logo and removes it (DELETE /api/environment/{uuid}/logo), the environment read again', async () => {
    const logo = { url: `/api/environment/${ENV_UUID}/logo/AAAAAAAAAAAAAAAA` };
    let current: Environment = { ...ENVIRONMENT, logo };
    const { calls } = mockFetch([
      {
        method: 'DELETE',
        path: `/api/environment/${ENV_UUID}/logo`,
        respond: () => {
          current = { ...ENVIRONMENT, logo: null };
          return { body: current };
        },
      },
      { path: '/api/environment/current', respond: () => ({ body: current }) },
      ...routesFor().slice(1),
    ]);
    render();
    const logoSection = await screen.findByRole('region', { name: 'Logo' });
    expect(within(logoSection).getByText(/En tête des e-mails envoyés à vos organisations clientes/)).toBeInTheDocument();
    expect(within(logoSection).getByRole('img', { name: 'Aperçu du logo' })).toHaveAttribute('src', logo.url);
    await userEvent.click(within(logoSection).getByRole('button', { name: 'Retirer le logo' }));
    expect(await screen.findByText('Les e-mails ne montreront plus que le nom de votre cabinet.')).toBeInTheDocument();
    expect(await within(logoSection).findByRole('button', { name: 'Choisir un logo' })).toBeInTheDocument();
    expect(calls.filter((c) => c.method === 'DELETE').map((c) => new URL(c.url).pathname)).toEqual([`/api/environment/${ENV_UUID}/logo`]);
  });

  it('saves the booking link through PATCH /api/environment/{uuid} and refuses an http link before sending', async () => {
    const saved = { ...ENVIRONMENT, bookingUrl: 'https://agenda.horizon.fr/30-minutes' };
    const { calls } = mockFetch(routesFor({ extra: [{ method: 'PATCH', path: `/api/environment/${ENV_UUID}`, body: saved }] }));
    render();
    const field = await screen.findByLabelText('Lien de prise de rendez-vous');
    await userEvent.clear(field);
    await userEvent.type(field, 'http://agenda.horizon.fr');
    await userEvent.click(within(section('Environnement')).getByRole('button', { name: 'Enregistrer' }));
    expect(await screen.findByText('Lien de prise de rendez-vous invalide : une adresse https://… est attendue')).toBeInTheDocument();
    expect(calls.filter((c) => c.method === 'PATCH')).toHaveLength(0);

    await userEvent.clear(field);
    await userEvent.type(field, 'https://agenda.horizon.fr/30-minutes');
    await userEvent.click(within(section('Environnement')).getByRole('button', { name: 'Enregistrer' }));
    expect(await screen.findByText('Paramètres enregistrés')).toBeInTheDocument();
    const patch = calls.find((c) => c.method === 'PATCH')!;
    expect(await patch.json()).toEqual({ title: 'Cabinet Horizon', refererEmail: 'contact@horizon.fr', bookingUrl: 'https://agenda.horizon.fr/30-minutes' });
  });

  it('shows the API’s French message under the field when the save is refused', async () => {
    mockFetch(
      routesFor({
        extra: [
          {
            method: 'PATCH',
            path: `/api/environment/${ENV_UUID}`,
            status: 400,
            body: { ...apiErrorBody(400, 'Données invalides'), details: [{ path: 'refererEmail', message: 'Adresse e-mail invalide' }] },
          },
        ],
      }),
    );
    render();
    const title = await screen.findByLabelText(/Nom de l’environnement/);
    await userEvent.type(title, ' Sud');
    await userEvent.click(within(section('Environnement')).getByRole('button', { name: 'Enregistrer' }));
    expect(await screen.findByText('Paramètres non enregistrés')).toBeInTheDocument();
    expect(await screen.findByText('Adresse e-mail invalide')).toBeInTheDocument();
  });

  it('edits the card with the account calls, and the preview follows', async () => {
    const updated = { ...superadmin, description: 'Disponible du lundi au vendredi' };
    const { calls } = mockFetch(routesFor({ extra: [{ method: 'PATCH', path: `/api/user/${superadmin.uuid}`, body: updated }] }));
    render();
    const description = await within(await screen.findByRole('region', { name: 'Votre carte' })).findByLabelText('Description');
    await userEvent.clear(description);
    await userEvent.type(description, 'Disponible du lundi au vendredi');
    await userEvent.click(within(section('Votre carte')).getByRole('button', { name: 'Enregistrer' }));
    expect(await screen.findByText('Profil mis à jour')).toBeInTheDocument();
    await waitFor(() => expect(within(section('Votre carte')).getByTestId('apercu-carte')).toHaveTextContent('Disponible du lundi au vendredi'));
    expect(await calls.find((c) => c.method === 'PATCH')!.json()).toMatchObject({ description: 'Disponible du lundi au vendredi' });
    expect(within(section('Votre carte')).getByRole('button', { name: 'Choisir une photo' })).toBeInTheDocument();
  });

  it('does not let a superadmin without its own two-factor sign-in require it, and says why', async () => {
    const { calls } = mockFetch(routesFor({ totp: false }));
    render();
    const security = await screen.findByRole('region', { name: 'Sécurité des superadmins' });
    const toggle = await within(security).findByRole('switch', { name: 'Double authentification obligatoire pour les superadmins' });
    expect(toggle).not.toBeChecked();
    expect(toggle).toBeDisabled();
    expect(within(security).getByText(/Activez-la d’abord sur votre propre compte/)).toBeInTheDocument();
    expect(within(security).getByRole('link', { name: 'Activer sur mon compte' })).toHaveAttribute('href', '/account#double-authentification');
    expect(calls.filter((c) => c.method === 'PATCH')).toHaveLength(0);
  });

  it('lets a superadmin who uses it require it of every superadmin', async () => {
    const { calls } = mockFetch(
      routesFor({ totp: true, extra: [{ method: 'PATCH', path: `/api/environment/${ENV_UUID}`, body: { ...ENVIRONMENT, requireSuperadminTotp: true } }] }),
    );
    render();
    const security = await screen.findByRole('region', { name: 'Sécurité des superadmins' });
    const toggle = await within(security).findByRole('switch', { name: 'Double authentification obligatoire pour les superadmins' });
    await waitFor(() => expect(toggle).toBeEnabled());
    await userEvent.click(toggle);
    expect(await screen.findByText('Double authentification obligatoire')).toBeInTheDocument();
    expect(await calls.find((c) => c.method === 'PATCH')!.json()).toEqual({ requireSuperadminTotp: true });
  });

  it('turns the daily digest off for the calling superadmin', async () => {
    const { calls } = mockFetch(routesFor({ extra: [{ method: 'PUT', path: `/api/environment/${ENV_UUID}/alert-digest`, body: { enabled: false } }] }));
    render();
    const toggle = await within(await screen.findByRole('region', { name: 'Récapitulatif quotidien des alertes' })).findByRole('switch');
    await userEvent.click(toggle);
    expect(await screen.findByText('Récapitulatif désactivé')).toBeInTheDocument();
    await waitFor(() => expect(toggle).not.toBeChecked());
    expect(await calls.find((c) => c.method === 'PUT')!.json()).toEqual({ enabled: false });
  });

  it('lets ROOT, joined to the environment, require it without asking for its own two-factor status', async () => {
    const root = makeUser({ ...superadmin, roles: ['ROOT'] });
    const { calls } = mockFetch([
      { path: '/api/environment/current', body: ENVIRONMENT },
      { path: `/api/environment/${ENV_UUID}/alert-digest`, body: { enabled: true } },
    ]);
    render(root);
    const toggle = await screen.findByRole('switch', { name: 'Double authentification obligatoire pour les superadmins' });
    expect(toggle).toBeEnabled();
    expect(screen.queryByText(/Activez-la d’abord/)).toBeNull();
    expect(calls.some((c) => new URL(c.url).pathname === '/api/auth/totp')).toBe(false);
  });

  it('is reserved to superadmins: an ADMIN reads why and nothing is fetched', async () => {
    const { calls } = mockFetch([]);
    render(makeUser({ roles: ['ADMIN'] }));
    expect(await screen.findByText('Cette page est réservée aux superadmins de l’environnement.')).toBeInTheDocument();
    expect(calls).toHaveLength(0);
  });
});
