import type { Sinister } from '@flotte/contract';
import { useQuery } from '@tanstack/react-query';
import { sinistersApi } from './sinisters-api';

/**
 * One claim, fresh from GET /api/sinister/{id}. `listed` (the row of the list) shows at once
 * while the claim loads.
 */
export function useSinister(uuid: string | undefined, listed?: Sinister) {
  return useQuery({
    ...sinistersApi.detailQueryOptions(uuid ?? ''),
    enabled: uuid !== undefined,
    placeholderData: listed,
  });
}
