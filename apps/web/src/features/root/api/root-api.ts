import {
  type CreateEnvironmentBody,
  type CreateTierBody,
  EnvironmentMembershipSchema,
  EnvironmentSchema,
  type GuaranteeBody,
  GuaranteeListSchema,
  GuaranteeSchema,
  RootSpacePageSchema,
  TierListSchema,
  TierSchema,
  type UpdateEnvironmentBody,
  type UpdateTierBody,
} from '@flotte/contract';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

const schema = <T,>(value: T) => (import.meta.env.DEV ? value : undefined);

export type SpacesQuery = { search?: string; page: number; limit: number };

/** GET /api/root/spaces: the spaces with their superadmins, tier in force and usage (ROOT). */
export function useRootSpaces(query: SpacesQuery) {
  return useQuery({
    queryKey: queryKeys.root.spaces(query),
    queryFn: ({ signal }) => api('/api/root/spaces', { query: { ...query, search: query.search || undefined }, schema: schema(RootSpacePageSchema), signal }),
    placeholderData: keepPreviousData,
  });
}

/** Every write of this page makes the spaces (and their tiers) stale. */
function useRootMutation<TVariables, TResult>(mutationFn: (variables: TVariables) => Promise<TResult>) {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn, onSuccess: () => void queryClient.invalidateQueries({ queryKey: queryKeys.root.all }) });
}

export function useCreateSpace() {
  return useRootMutation((body: CreateEnvironmentBody) => api('/api/environment', { method: 'POST', body, schema: schema(EnvironmentSchema) }));
}

export function useUpdateSpace() {
  return useRootMutation(({ uuid, body }: { uuid: string; body: UpdateEnvironmentBody }) =>
    api(`/api/environment/${uuid}`, { method: 'PATCH', body, schema: schema(EnvironmentSchema) }),
  );
}

/** ROOT joins a space to act in it (it becomes its current environment), or leaves it. */
export function useJoinSpace() {
  return useRootMutation((uuid: string) => api(`/api/environment-user/${uuid}/join`, { method: 'POST', schema: schema(EnvironmentMembershipSchema) }));
}
export function useQuitSpace() {
  return useRootMutation((uuid: string) => api(`/api/environment-user/${uuid}/quit`, { method: 'POST' }));
}

/** GET /api/environment/{uuid}/tier: sorted by start, with the one in force. */
export function useTiers(environment: string) {
  return useQuery({
    queryKey: queryKeys.root.tiers(environment),
    queryFn: ({ signal }) => api(`/api/environment/${environment}/tier`, { schema: schema(TierListSchema), signal }),
  });
}

export function useSaveTier(environment: string) {
  return useRootMutation(({ uuid, body }: { uuid?: string; body: CreateTierBody | UpdateTierBody }) =>
    uuid
      ? api(`/api/environment/${environment}/tier/${uuid}`, { method: 'PATCH', body, schema: schema(TierSchema) })
      : api(`/api/environment/${environment}/tier`, { method: 'POST', body, schema: schema(TierSchema) }),
  );
}

export function useDeleteTier(environment: string) {
  return useRootMutation((uuid: string) => api(`/api/environment/${environment}/tier/${uuid}`, { method: 'DELETE' }));
}

/** GET /api/guarantees: the same query (key and answer) as the claims' and the contracts'. */
export function useGuarantees() {
  return useQuery({
    queryKey: queryKeys.guarantees,
    queryFn: ({ signal }) => api('/api/guarantees', { schema: schema(GuaranteeListSchema), signal }),
  });
}

/** POST /api/guarantees or PATCH /api/guarantees/{uuid}: the guarantees and every claims list read again. */
export function useSaveGuarantee() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ uuid, body }: { uuid?: string; body: GuaranteeBody }) =>
      uuid ? api(`/api/guarantees/${uuid}`, { method: 'PATCH', body, schema: schema(GuaranteeSchema) }) : api('/api/guarantees', { method: 'POST', body, schema: schema(GuaranteeSchema) }),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: queryKeys.guarantees });
      void queryClient.invalidateQueries({ queryKey: queryKeys.sinisters.all });
    },
  });
}
