import { useOutletContext } from 'react-router';

/**
 * What the logged layout gives the pages under it (its Outlet context): the organization switch
 * it runs with its loading modal. A page that switches (the broker's « Ouvrir ») uses it instead
 * of importing the switch, which stays in the layout's chunk.
 */
export type LoggedOutletContext = {
  switchOrganization: (organizationUuid: string, options?: { reloadAt?: string }) => Promise<void>;
};

/** The layout's context; undefined outside it (a page rendered alone in a test). */
export function useLoggedOutlet(): LoggedOutletContext | undefined {
  return useOutletContext<LoggedOutletContext | undefined>();
}
