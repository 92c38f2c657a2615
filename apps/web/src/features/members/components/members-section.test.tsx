import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { Invitation } from '@flotte/contract';
import { describe, expect, it } from 'vitest';
import { SnackbarHost } from '../../../components/snackbar/snackbar-host';
import { authStore } from '../../../lib/auth-store';
import { makeLink, makeUser, ORG_A, page } from '../../../test/fixtures';
import { apiErrorBody, mockFetch, type MockRoute } from '../../../test/mock-fetch';
import { renderWithProviders } from '../../../test/render';
import { MembersSection } from './members-section';

const me = makeUser();
const colleague = makeUser({ uuid: '5d1c2b3a-0000-4000-8000-000000000002', email: 'paul.roux@demo.fr', firstName: 'Paul', lastName: 'Roux' });
const myLink = makeLink(me, ORG_A, '7e000000-0000-4000-8000-0000000000a1', 'ADMIN');
const colleagueLink = makeLink(colleague, ORG_A, '7e000000-0000-4000-8000-0000000000a2', 'USER');
const pending: Invitation = {
  uuid: '9a000000-0000-4000-8000-000000000001',
  email: 'nadia.benali@demo.fr',
  role: 'USER',
  invitedBy: { firstName: 'Claire', lastName: 'Dupont' },
  createdAt: '2026-11-20T09:00:00.000Z',
  expiresAt: '2099-11-27T09:00:00.000Z',
};
const expired: Invitation = { ...pending, uuid: '9a000000-0000-4000-8000-000000000002', email: 'ancien@demo.fr', expiresAt: '2020-01-01T09:00:00.000Z' };

const routes = (extra: MockRoute[] = []): MockRoute[] => [
  ...extra,
  { path: '/api/organization-user', body: page([myLink, colleagueLink]) },
  { path: '/api/organization-invitation', body: page([pending, expired]) },
];

function renderSection(roles: ('ADMIN' | 'USER' | 'SUPERADMIN')[] = ['ADMIN']) {
  authStore.setSession('token', makeUser({ roles }));
  return renderWithProviders(
    <>
      <MembersSection />
      <SnackbarHost />
    </>,
  );
}

describe('<MembersSection />', () => {
  it('shows a plain member the members and their roles, read only, and no invitations', async () => {
    const { calls } = mockFetch(routes());
    renderSection(['USER']);
    const table = await screen.findByRole('table', { name: 'Membres de l’organisation' });
    expect(within(table).getByRole('row', { name: /Claire Dupont.*\(vous\).*claire\.dupont@demo\.fr.*Administrateur/ })).toBeInTheDocument();
    expect(within(table).getByRole('row', { name: /Paul Roux paul\.roux@demo\.fr Utilisateur/ })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Inviter un membre' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Retirer/ })).not.toBeInTheDocument();
    expect(screen.queryByText('Invitations en attente')).not.toBeInTheDocument();
    expect(calls.map((c) => new URL(c.url).pathname)).not.toContain('/api/organization-invitation');
    expect(new URL(calls[0]!.url).searchParams.get('organization')).toBe(ORG_A.uuid);
  });

  it('lets an administrator change a role', async () => {
    const { calls } = mockFetch(routes([{ method: 'PATCH', path: `/api/organization-user/${colleagueLink.uuid}`, body: { ...colleagueLink, role: 'ADMIN' } }]));
    renderSection();
    const ui = userEvent.setup();
    await ui.click(await screen.findByRole('combobox', { name: 'Rôle de Paul Roux' }));
    await ui.click(await screen.findByRole('option', { name: 'Administrateur' }));
    expect(await screen.findByText('Rôle modifié')).toBeInTheDocument();
    expect(await calls.find((c) => c.method === 'PATCH')!.json()).toEqual({ role: 'ADMIN' });
  });

  it("tells the API's refusal of the last administrator's demotion in French", async () => {
    const message = "Impossible de retirer son rôle au dernier administrateur de l'organisation : nommez d'abord un autre membre administrateur.";
    mockFetch(routes([{ method: 'PATCH', path: `/api/organization-user/${myLink.uuid}`, status: 409, body: { statusCode: 409, error: 'Conflict', message } }]));
    renderSection();
    const ui = userEvent.setup();
    await ui.click(await screen.findByRole('combobox', { name: 'Rôle de Claire Dupont' }));
    await ui.click(await screen.findByRole('option', { name: 'Utilisateur' }));
    expect(await screen.findByText(message)).toBeInTheDocument();
  });

  it('removes a member after a confirmation, and keeps them on « Annuler »', async () => {
    const { calls } = mockFetch(routes([{ method: 'DELETE', path: `/api/organization-user/${colleagueLink.uuid}`, status: 204 }]));
    renderSection();
    const ui = userEvent.setup();
    await ui.click(await screen.findByRole('button', { name: 'Retirer Paul Roux' }));
    let dialog = await screen.findByRole('alertdialog', { name: 'Retirer Paul Roux de l’organisation ?' });
    await ui.click(within(dialog).getByRole('button', { name: 'Annuler' }));
    expect(calls.filter((c) => c.method === 'DELETE')).toHaveLength(0);
    await waitFor(() => expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument());

    await ui.click(screen.getByRole('button', { name: 'Retirer Paul Roux' }));
    dialog = await screen.findByRole('alertdialog', { name: 'Retirer Paul Roux de l’organisation ?' });
    await ui.click(within(dialog).getByRole('button', { name: 'Retirer' }));
    expect(await screen.findByText('Membre retiré')).toBeInTheDocument();
    expect(calls.filter((c) => c.method === 'DELETE')).toHaveLength(1);
  });

  it('lets the broker turn off the second factor of a member who signs in with one, after a confirmation', async () => {
    // As the API answers a superadmin: whether each member signs in with a code.
    const withCode = makeLink(colleague, ORG_A, colleagueLink.uuid, 'USER', true);
    const third = makeLink(makeUser({ uuid: '5d1c2b3a-0000-4000-8000-000000000003', firstName: 'Inès', lastName: 'Garnier', email: 'ines@demo.fr' }), ORG_A, '7e000000-0000-4000-8000-0000000000a3', 'USER', false);
    const { calls } = mockFetch([
      { method: 'DELETE', path: `/api/organization-user/${colleagueLink.uuid}/two-factor`, status: 204 },
      { path: '/api/organization-user', body: page([makeLink(me, ORG_A, myLink.uuid, 'ADMIN', true), withCode, third]) },
      { path: '/api/organization-invitation', body: page([]) },
    ]);
    renderSection(['SUPERADMIN']);
    const ui = userEvent.setup();
    await ui.click(await screen.findByRole('button', { name: 'Désactiver la double authentification de Paul Roux' }));
    // Not for a member without it, nor for oneself (the account page does it, with a code).
    expect(screen.queryByRole('button', { name: 'Désactiver la double authentification de Inès Garnier' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Désactiver la double authentification de Claire Dupont' })).not.toBeInTheDocument();
    const dialog = await screen.findByRole('alertdialog', { name: 'Désactiver la double authentification de Paul Roux ?' });
    expect(within(dialog).getByText(/Il en est averti par e-mail/)).toBeInTheDocument();
    await ui.click(within(dialog).getByRole('button', { name: 'Désactiver' }));
    expect(await screen.findByText('Double authentification désactivée')).toBeInTheDocument();
    expect(calls.filter((c) => c.method === 'DELETE').map((c) => new URL(c.url).pathname)).toEqual([`/api/organization-user/${colleagueLink.uuid}/two-factor`]);
  });

  it('offers no second-factor action to an administrator (the API tells it nothing of it)', async () => {
    mockFetch(routes());
    renderSection();
    await screen.findByRole('button', { name: 'Retirer Paul Roux' });
    expect(screen.queryByRole('button', { name: /Désactiver la double authentification/ })).not.toBeInTheDocument();
  });

  it('lists the pending invitations, an expired one marked, with « Renvoyer » and « Annuler »', async () => {
    const { calls } = mockFetch(
      routes([
        { method: 'POST', path: `/api/organization-invitation/${expired.uuid}/resend`, body: { ...expired, expiresAt: '2099-01-01T00:00:00.000Z' } },
        { method: 'DELETE', path: `/api/organization-invitation/${pending.uuid}`, status: 204 },
      ]),
    );
    renderSection();
    const table = await screen.findByRole('table', { name: 'Invitations en attente' });
    expect(within(table).getByRole('row', { name: /nadia\.benali@demo\.fr Utilisateur Claire Dupont Jusqu’au 27\/11\/2099/ })).toBeInTheDocument();
    expect(within(table).getByRole('row', { name: /ancien@demo\.fr .*Expirée/ })).toBeInTheDocument();
    const ui = userEvent.setup();
    await ui.click(screen.getByRole('button', { name: 'Renvoyer l’invitation de ancien@demo.fr' }));
    expect(await screen.findByText('Invitation renvoyée')).toBeInTheDocument();

    await ui.click(screen.getByRole('button', { name: 'Annuler l’invitation de nadia.benali@demo.fr' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Annuler l’invitation de nadia.benali@demo.fr ?' });
    await ui.click(within(dialog).getByRole('button', { name: 'Annuler l’invitation' }));
    expect(await screen.findByText('Invitation annulée')).toBeInTheDocument();
    expect(calls.filter((c) => c.method !== 'GET').map((c) => `${c.method} ${new URL(c.url).pathname}`)).toEqual([
      `POST /api/organization-invitation/${expired.uuid}/resend`,
      `DELETE /api/organization-invitation/${pending.uuid}`,
    ]);
  });

  it('invites by e-mail with a role, the address checked in French first, the API’s 409 under the field', async () => {
    const conflict = "Cette personne est déjà membre de l'organisation";
    const { calls } = mockFetch(
      routes([
        {
          method: 'POST',
          path: '/api/organization-invitation',
          respond: (_request, call) =>
            call === 1
              ? { status: 409, body: apiErrorBody(409, conflict, [{ path: 'email', message: conflict }]) }
              : { status: 201, body: { ...pending, email: 'luc.garnier@demo.fr', role: 'ADMIN' } },
        },
      ]),
    );
    renderSection();
    const ui = userEvent.setup();
    await ui.click(await screen.findByRole('button', { name: 'Inviter un membre' }));
    const dialog = await screen.findByRole('dialog', { name: 'Inviter un membre' });
    await ui.type(within(dialog).getByLabelText(/Adresse e-mail/), 'luc@');
    await ui.click(within(dialog).getByRole('button', { name: 'Envoyer l’invitation' }));
    expect(await within(dialog).findByText('Adresse e-mail invalide')).toBeInTheDocument();
    expect(calls.filter((c) => c.method === 'POST')).toHaveLength(0);

    await ui.clear(within(dialog).getByLabelText(/Adresse e-mail/));
    await ui.type(within(dialog).getByLabelText(/Adresse e-mail/), 'Paul.Roux@demo.fr');
    await ui.click(within(dialog).getByRole('button', { name: 'Envoyer l’invitation' }));
    expect(await within(dialog).findByText(conflict)).toBeInTheDocument();

    await ui.clear(within(dialog).getByLabelText(/Adresse e-mail/));
    await ui.type(within(dialog).getByLabelText(/Adresse e-mail/), 'luc.garnier@demo.fr');
    await ui.click(within(dialog).getByRole('combobox', { name: /Rôle/ }));
    await ui.click(await screen.findByRole('option', { name: 'Administrateur' }));
    await ui.click(within(dialog).getByRole('button', { name: 'Envoyer l’invitation' }));
    expect(await screen.findByText('Invitation envoyée')).toBeInTheDocument();
    const posts = calls.filter((c) => c.method === 'POST');
    expect(await posts[0]!.json()).toEqual({ email: 'paul.roux@demo.fr', role: 'USER' });
    expect(await posts[1]!.json()).toEqual({ email: 'luc.garnier@demo.fr', role: 'ADMIN' });
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Inviter un membre' })).not.toBeInTheDocument());
  });
});
