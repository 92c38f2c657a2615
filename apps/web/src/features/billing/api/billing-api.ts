import {
  type Checkout,
  type CheckoutBody,
  CheckoutSchema,
  CurrentPlanSchema,
  InvoiceListSchema,
  PlanListSchema,
} from '@flotte/contract';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { useCurrentUser } from '../../../lib/auth-store';
import { queryKeys } from '../../../lib/query-keys';
import { useCurrentPlanQuery } from './locked-features';

/** Billing (decision 044): the plans, the organization's current plan, a checkout, the invoices. */
export const billingKeys = {
  all: ['billing'] as const,
  plans: () => ['billing', 'plans'] as const,
  currentPlan: queryKeys.currentPlan,
  checkout: (sessionId: string) => ['billing', 'checkout', sessionId] as const,
  invoices: (organizationUuid: string) => ['billing', 'invoices', organizationUuid] as const,
};

const dev = import.meta.env.DEV;

export function usePlans() {
  return useQuery(queryOptions({ queryKey: billingKeys.plans(), queryFn: ({ signal }) => api('/api/stripe/plans', { schema: dev ? PlanListSchema : undefined, signal }), staleTime: 5 * 60_000 }));
}

function useOrganizationUuid(): string | null {
  return useCurrentUser()?.currentOrganizationUser?.organization.uuid ?? null;
}

/** GET /api/stripe/current-plan, checked against its schema in development: the sidebar's query (locked-features.ts), same key. */
export function useCurrentPlan() {
  return useCurrentPlanQuery(dev ? CurrentPlanSchema : undefined);
}

export function useCheckout(sessionId: string | null, options: { poll?: boolean } = {}) {
  return useQuery({
    queryKey: billingKeys.checkout(sessionId ?? ''),
    queryFn: ({ signal }) => api(`/api/stripe/checkout/${encodeURIComponent(sessionId!)}`, { schema: dev ? CheckoutSchema : undefined, signal }),
    enabled: sessionId !== null,
    // The confirmation waits for the provider's event: read again until the payment is done.
    refetchInterval: options.poll ? (query) => (query.state.data?.paid ? false : 2_000) : false,
  });
}

export function useInvoices() {
  const organizationUuid = useOrganizationUuid();
  return useQuery({
    queryKey: billingKeys.invoices(organizationUuid ?? ''),
    queryFn: ({ signal }) => api('/api/stripe/invoices', { schema: dev ? InvoiceListSchema : undefined, signal }),
    enabled: organizationUuid !== null,
  });
}

export function useCreateCheckout() {
  return useMutation({ mutationFn: (body: CheckoutBody) => api<Checkout>('/api/stripe/checkout', { method: 'POST', body, idempotent: true }) });
}

/** The embedded checkout page's payment; the plan, the menu and the invoices are read again. */
export function usePayEmbedded() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (sessionId: string) => api<Checkout>(`/api/stripe/checkout/${encodeURIComponent(sessionId)}/pay`, { method: 'POST', idempotent: true }),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: billingKeys.all }),
  });
}
