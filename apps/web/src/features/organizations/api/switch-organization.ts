import { OrganizationUserSchema, type OrganizationUser, type User } from '@flotte/contract';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { snackbar } from '../../../components/snackbar/snackbar';
import { api } from '../../../lib/api-client';
import { ApiError } from '../../../lib/api-error';
import { authStore } from '../../../lib/auth-store';
import { updateCurrentUser } from '../../../lib/session';
import { myOrganizationUsersQueryOptions } from './get-my-organization-users';

/** SPEC section 9: the loading modal stays at least this long. */
export const SWITCH_ORGANIZATION_DELAY_MS = 1000;

const wait = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Makes `organizationUuid` the user's current organization: creates the user's link to it first
 * when there is none (a superadmin entering an organization of its environment).
 */
export async function switchOrganization(
  me: User,
  organizationUuid: string,
  links: readonly OrganizationUser[],
): Promise<User> {
  await wait(SWITCH_ORGANIZATION_DELAY_MS);
  const link =
    links.find((candidate) => candidate.organization.uuid === organizationUuid) ??
    (await api('/api/organization-user', {
      method: 'POST',
      body: { user: me.uuid, organization: organizationUuid },
      schema: import.meta.env.DEV ? OrganizationUserSchema : undefined,
    }));
  return updateCurrentUser({ currentOrganizationUser: link.uuid });
}

export type SwitchOptions = { reloadAt?: string };

export function useSwitchOrganization() {
  const [switching, setSwitching] = useState(false);
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const { pathname } = useLocation();

  /** `reloadAt`: where a superadmin's full page load lands (the broker's « Ouvrir »: /dashboard); the current page by default. */
  const run = async (organizationUuid: string, options: SwitchOptions = {}) => {
    const me = authStore.getState().user;
    if (!me || me.currentOrganizationUser?.organization.uuid === organizationUuid) return;
    setSwitching(true);
    try {
      const links = await queryClient.fetchQuery(myOrganizationUsersQueryOptions(me.uuid));
      await switchOrganization(me, organizationUuid, links.data);
      if (me.roles.includes('SUPERADMIN')) {
        // Everything on screen may belong to another organization: start clean. The modal stays up.
        if (options.reloadAt) window.location.assign(options.reloadAt);
        else window.location.reload();
        return;
      }
      await queryClient.invalidateQueries();
      if (pathname !== '/dashboard') await navigate('/dashboard');
      setSwitching(false);
    } catch (error) {
      setSwitching(false);
      snackbar.show({
        type: 'error',
        title: 'Erreur',
        description: error instanceof ApiError ? error.message : "Impossible de changer d'organisation",
      });
    }
  };

  return { switchOrganization: run, switching };
}
