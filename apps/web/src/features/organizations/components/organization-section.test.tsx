import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { authStore } from '../../../lib/auth-store';
import { makeUser, ORG_A } from '../../../test/fixtures';
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

  it('says when no organization is selected', () => {
    authStore.setSession('token', makeUser({ currentOrganizationUser: null }));
    renderWithProviders(<OrganizationSection />);
    expect(screen.getByText('Aucune organisation sélectionnée.')).toBeInTheDocument();
  });
});
