import type { BillingFeature, CurrentPlan } from '@flotte/contract';
import { useQuery } from '@tanstack/react-query';
import { api, type ApiOptions } from '../../../lib/api-client';
import { useCurrentUser } from '../../../lib/auth-store';
import { queryKeys } from '../../../lib/query-keys';

// What the sidebar needs of billing (decision 044), apart from billing-api.ts (which does not
// import it either) so that every logged-in page's first load carries only this, in its layout's chunk.

/** GET /api/stripe/current-plan for the current organization (none: no query); the plans pages read the same key. */
export function useCurrentPlanQuery(schema?: ApiOptions<CurrentPlan>['schema']) {
  const organizationUuid = useCurrentUser()?.currentOrganizationUser?.organization.uuid ?? null;
  return useQuery({
    queryKey: queryKeys.currentPlan(organizationUuid ?? ''),
    queryFn: ({ signal }) => api<CurrentPlan>('/api/stripe/current-plan', { schema, signal }),
    enabled: organizationUuid !== null,
    staleTime: 60_000,
  });
}

/**
 * The menu features the current organization's plan leaves locked ('À venir'); null while the
 * plan is unknown (loading, an error). The sidebar locks nothing then — a paying customer never
 * sees its menu flicker shut — but asks nothing of a feature either (its badge), which the API
 * refuses without the plan.
 */
export function useLockedFeatures(): ReadonlySet<BillingFeature> | null {
  const { data } = useCurrentPlanQuery();
  if (!data) return null;
  if (data.source === 'environment') return EMPTY;
  const open = new Set(data.features);
  return new Set((['documents', 'alerts'] as const).filter((feature) => !open.has(feature)));
}
const EMPTY: ReadonlySet<BillingFeature> = new Set();
