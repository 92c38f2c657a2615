import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { SnackbarHost } from '../../../components/snackbar/snackbar-host';
import { authStore } from '../../../lib/auth-store';
import { makeUser, ORG_A } from '../../../test/fixtures';
import { apiErrorBody, mockFetch } from '../../../test/mock-fetch';
import { renderWithProviders } from '../../../test/render';
import { OrganizationSection } from './organization-section';

describe('<OrganizationSection />', () => {
  it("shows the current organization, its broker's space and the caller's role", () => {
    authStore.setSession('token', makeUser({ roles: ['USER'] }));
    renderWithProviders(<OrganizationSection />);
    expect(screen.getByRole('region', { name: 'Organisation' })).toBeInTheDocument();
    expect(screen.getByText('Transports Martin')).toBeInTheDocument();
    expect(screen.getByText('Courtage Demo')).toBeInTheDocument();
    expect(screen.getByText('Utilisateur')).toBeInTheDocument();
  });

  it('says an independent organization has no space', () => {
    authStore.setSession('token', makeUser({ currentOrganizationUser: { uuid: '7e000000-0000-4000-8000-0000000000a1', organization: { ...ORG_A, environment: null } } }));
    renderWithProviders(<OrganizationSection />);
    expect(screen.getByText('Aucun (organisation indépendante)')).toBeInTheDocument();
    expect(screen.getByText('Administrateur')).toBeInTheDocument();
  });

  it('lets an administrator change or remove the logo, never a plain user', async () => {
    const ui = userEvent.setup();
    const logo = { url: `/api/organization/${ORG_A.uuid}/logo/AAAAAAAAAAAAAAAA` };
    const admin = makeUser({ roles: ['ADMIN'], currentOrganizationUser: { uuid: '7e000000-0000-4000-8000-0000000000a1', organization: { ...ORG_A, avatar: logo } } });
    authStore.setSession('token', admin);
    const { calls } = mockFetch([
      { method: 'DELETE', path: `/api/organization/${ORG_A.uuid}/logo`, body: { ...ORG_A, avatar: null, subscription: null } },
      { path: '/api/auth/me', body: { ...admin, currentOrganizationUser: { ...admin.currentOrganizationUser!, organization: { ...ORG_A, avatar: null } } } },
    ]);
    const view = renderWithProviders(
      <>
        <OrganizationSection />
        <SnackbarHost />
      </>,
    );
    expect(screen.getByRole('img', { name: 'Aperçu du logo' })).toHaveAttribute('src', logo.url);
    expect(screen.getByRole('button', { name: 'Changer le logo' })).toBeInTheDocument();
    await ui.click(screen.getByRole('button', { name: 'Retirer le logo' }));
    expect(await screen.findByText('L’initiale de l’organisation le remplace.')).toBeInTheDocument();
    expect(calls.some((c) => c.method === 'DELETE' && c.url.endsWith(`/api/organization/${ORG_A.uuid}/logo`))).toBe(true);
    expect(await screen.findByRole('button', { name: 'Choisir un logo' })).toBeInTheDocument();
    view.unmount();

    authStore.setSession('token', makeUser({ roles: ['USER'] }));
    renderWithProviders(<OrganizationSection />);
    expect(screen.queryByRole('button', { name: /logo/ })).not.toBeInTheDocument();
  });

  it('lets an administrator download all the organization’s data as a ZIP under the server’s name; a refusal is said in French', async () => {
    const ui = userEvent.setup();
    const saved: string[] = [];
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL: () => 'blob:donnees', revokeObjectURL: vi.fn() }));
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      saved.push(this.download);
    });
    authStore.setSession('token', makeUser({ roles: ['ADMIN'] }));
    const zip = new TextEncoder().encode('PK\u0003\u0004');
    let refuse = false;
    const { calls } = mockFetch([
      {
        path: `/api/organization/${ORG_A.uuid}/export`,
        respond: () =>
          refuse
            ? { status: 403, body: apiErrorBody(403, 'Accès refusé : réservé aux administrateurs de l’organisation.') }
            : { body: zip, headers: { 'content-type': 'application/zip', 'content-disposition': `attachment; filename="Donnees-Transports-Martin-2026-11-27.zip"` } },
      },
    ]);
    renderWithProviders(
      <>
        <OrganizationSection />
        <SnackbarHost />
      </>,
    );
    expect(screen.getByText(/demande d’accès \(RGPD\)/)).toBeInTheDocument();
    await ui.click(screen.getByRole('button', { name: 'Exporter les données' }));
    await waitFor(() => expect(saved).toEqual(['Donnees-Transports-Martin-2026-11-27.zip']));
    const call = calls.find((c) => c.url.endsWith(`/api/organization/${ORG_A.uuid}/export`))!;
    expect(call.headers.get('authorization')).toBe('Bearer token');
    refuse = true;
    await ui.click(screen.getByRole('button', { name: 'Exporter les données' }));
    expect(await screen.findByText('Accès refusé : réservé aux administrateurs de l’organisation.')).toBeInTheDocument();
    expect(saved).toHaveLength(1);
  });

  it('offers no data export to a plain user', () => {
    authStore.setSession('token', makeUser({ roles: ['USER'] }));
    renderWithProviders(<OrganizationSection />);
    expect(screen.queryByRole('button', { name: 'Exporter les données' })).not.toBeInTheDocument();
  });

  it('says when no organization is selected', () => {
    authStore.setSession('token', makeUser({ currentOrganizationUser: null }));
    renderWithProviders(<OrganizationSection />);
    expect(screen.getByText('Aucune organisation sélectionnée.')).toBeInTheDocument();
  });
});
