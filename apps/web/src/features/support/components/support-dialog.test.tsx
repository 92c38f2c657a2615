import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { Environment } from '@flotte/contract';
import { SnackbarHost } from '../../../components/snackbar/snackbar-host';
import { apiErrorBody, mockFetch, type MockRoute } from '../../../test/mock-fetch';
import { renderWithProviders } from '../../../test/render';
import { DescriptionCounter } from './description-counter';
import { SupportDialog } from './support-dialog';
import { AppProviders } from '../../../app/providers';

const ENVIRONMENT: Environment = {
  uuid: '0b6f3a4e-1f4c-4a57-9a53-6f3e2a1d0e01',
  title: 'Courtage Demo',
  logo: null,
  refererEmail: null,
  bookingUrl: 'https://rendez-vous.example/courtage-demo',
  tiers: [],
  environmentUsers: [],
  organizations: [],
  freeOrganizations: 0,
  stripeProductId: null,
  requireSuperadminTotp: false,
};

const environmentRoute: MockRoute = { path: '/api/environment/current', body: ENVIRONMENT };
const superadminRoute = (body: unknown): MockRoute => ({
  path: `/api/environment-user/${ENVIRONMENT.uuid}/superadmin`,
  body,
});

function renderDialog() {
  return renderWithProviders(
    <>
      <SupportDialog open onClose={() => {}} />
      <SnackbarHost />
    </>,
  );
}

describe('<DescriptionCounter />', () => {
  const renderCounter = (length: number) =>
    render(
      <AppProviders>
        <DescriptionCounter length={length} />
      </AppProviders>,
    );

  it('counts up to 800 characters in the normal colour', () => {
    renderCounter(800);
    const counter = screen.getByText('800/800 caractères max.');
    expect(counter).not.toHaveAttribute('data-over-limit');
    expect(counter).toHaveStyle({ color: 'rgb(75, 85, 99)' });
  });

  it('turns red above 800 characters', () => {
    renderCounter(801);
    const counter = screen.getByText('801/800 caractères max.');
    expect(counter).toHaveAttribute('data-over-limit', 'true');
    expect(counter).toHaveStyle({ color: 'rgb(198, 40, 40)' });
  });
});

describe('<SupportDialog />', () => {
  it('offers a booking link when the environment has no superadmin', async () => {
    mockFetch([environmentRoute, superadminRoute(null)]);
    renderDialog();
    const booking = await screen.findByRole('link', { name: /Prendre un rendez-vous/ });
    expect(booking).toHaveAttribute('href', ENVIRONMENT.bookingUrl);
    expect(booking).toHaveAttribute('target', '_blank');
    expect(booking).toHaveAttribute('rel', expect.stringContaining('noopener'));
    expect(booking).toHaveTextContent('30 minutes, en visio');
  });

  it('shows the superadmin instead of the booking link when there is one', async () => {
    mockFetch([
      environmentRoute,
      superadminRoute({
        avatar: null,
        firstName: 'Marc',
        lastName: 'Lefebvre',
        description: 'Votre courtier dédié',
        phone: '+33142424242',
      }),
    ]);
    renderDialog();
    expect(await screen.findByText('Marc Lefebvre')).toBeInTheDocument();
    expect(screen.getByText('Votre courtier dédié')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: '01 42 42 42 42' })).toHaveAttribute('href', 'tel:+33142424242');
    expect(screen.queryByRole('link', { name: /Prendre un rendez-vous/ })).not.toBeInTheDocument();
  });

  it('has no booking choice for a user outside any environment', async () => {
    mockFetch([{ path: '/api/environment/current', status: 404, body: apiErrorBody(404, 'Aucun environnement') }]);
    renderDialog();
    expect(await screen.findByRole('button', { name: /Signaler un bug/ })).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: /Prendre un rendez-vous/ })).not.toBeInTheDocument();
  });

  it('validates, sends a bug, says so, empties the form, and goes back to the choices', async () => {
    const { calls } = mockFetch([environmentRoute, superadminRoute(null), { method: 'POST', path: '/api/report', status: 201, body: {} }]);
    renderDialog();
    const ui = userEvent.setup();
    await ui.click(await screen.findByRole('button', { name: /Signaler un bug/ }));

    // The form arrives with its module (lazy): wait for it.
    await ui.click(await screen.findByRole('button', { name: 'Envoyer' }));
    expect(await screen.findByText('Le titre est obligatoire')).toBeInTheDocument();
    expect(screen.getByText('La description est obligatoire')).toBeInTheDocument();
    expect(calls.some((c) => c.url.endsWith('/api/report'))).toBe(false);

    const title = screen.getByLabelText(/Titre/);
    const description = screen.getByLabelText(/Description/);
    await ui.type(title, 'Export impossible');
    await ui.type(description, 'Le bouton ne répond pas.');
    expect(screen.getByText('24/800 caractères max.')).toBeInTheDocument();
    await ui.click(screen.getByRole('button', { name: 'Envoyer' }));

    expect(await screen.findByText('Envoi du bug')).toBeInTheDocument();
    expect(screen.getByText('Votre bug a bien été envoyé')).toBeInTheDocument();
    const report = calls.find((c) => c.url.endsWith('/api/report'));
    expect(await report?.json()).toEqual({ title: 'Export impossible', description: 'Le bouton ne répond pas.', type: 'bug' });
    expect(title).toHaveValue('');
    expect(description).toHaveValue('');

    await ui.click(screen.getByRole('button', { name: 'Retour' }));
    expect(screen.getByRole('button', { name: /Proposer une suggestion/ })).toBeInTheDocument();
  });

  it('refuses a description over 800 characters and shows the counter in red', async () => {
    mockFetch([environmentRoute, superadminRoute(null)]);
    renderDialog();
    const ui = userEvent.setup();
    await ui.click(await screen.findByRole('button', { name: /Proposer une suggestion/ }));
    // The form arrives with its module (lazy): wait for it.
    await ui.type(await screen.findByLabelText(/Titre/), 'Idée');
    await ui.click(screen.getByLabelText(/Description/));
    await ui.paste('x'.repeat(801));
    expect(screen.getByText('801/800 caractères max.')).toHaveAttribute('data-over-limit', 'true');
    await ui.click(screen.getByRole('button', { name: 'Envoyer' }));
    expect(await screen.findByText('La description : 800 caractères maximum')).toBeInTheDocument();
  });

  it('shows an error snackbar when a suggestion cannot be sent, keeping the text', async () => {
    mockFetch([
      environmentRoute,
      superadminRoute(null),
      { method: 'POST', path: '/api/report', status: 500, body: apiErrorBody(500, 'Une erreur interne est survenue.') },
    ]);
    renderDialog();
    const ui = userEvent.setup();
    await ui.click(await screen.findByRole('button', { name: /Proposer une suggestion/ }));
    // The form arrives with its module (lazy): wait for it.
    await ui.type(await screen.findByLabelText(/Titre/), 'Mode sombre');
    await ui.type(screen.getByLabelText(/Description/), 'Pour le soir.');
    await ui.click(screen.getByRole('button', { name: 'Envoyer' }));

    const alert = await screen.findByRole('alert');
    expect(within(alert).getByText('Erreur')).toBeInTheDocument();
    expect(within(alert).getByText("Erreur lors de l'envoi de votre suggestion")).toBeInTheDocument();
    expect(screen.getByLabelText(/Titre/)).toHaveValue('Mode sombre');
  });
});
