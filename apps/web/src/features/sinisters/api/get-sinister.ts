import { SinisterSchema, type Sinister } from '@flotte/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { sinisterKeys } from './get-sinisters';

export function getSinister(uuid: string, signal?: AbortSignal) {
  return api(`/api/sinister/${uuid}`, { schema: SinisterSchema, signal });
}

export function sinisterQueryOptions(uuid: string) {
  return queryOptions({ queryKey: sinisterKeys.detail(uuid), queryFn: ({ signal }) => getSinister(uuid, signal) });
}

/**
 * One claim, fresh from GET /api/sinister/{id}. `listed` (the row of the list) shows at once
 * while the claim loads.
 */
export function useSinister(uuid: string | undefined, listed?: Sinister) {
  return useQuery({
    ...sinisterQueryOptions(uuid ?? ''),
    enabled: uuid !== undefined,
    placeholderData: listed,
  });
}
