import { SinisterPageSchema, type SINISTER_SORT_COLUMNS } from '@flotte/contract';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { RegisterApiQuery } from '../../../components/register/use-list-search-params';
import { api } from '../../../lib/api-client';

export type SinisterSortColumn = (typeof SINISTER_SORT_COLUMNS)[number];

/** The list filters of GET /api/sinister, named as the API names them (and as the URL keeps them). */
export const SINISTER_FILTERS = [
  'hasHumanInjury',
  'damagedVehicule',
  'isThirdImplicated',
  'showDeclared',
  'showNotDeclared',
  'responsible',
  'garantee',
  'startDate',
  'endDate',
] as const;
export type SinisterFilter = (typeof SINISTER_FILTERS)[number];

/** GET /api/sinister parameters, as useListSearchParams builds them from the URL. */
export type SinistersQuery = RegisterApiQuery<SinisterSortColumn, SinisterFilter>;

/** Query keys of the claims: every mutation invalidates `sinisterKeys.all`. */
export const sinisterKeys = {
  all: ['sinisters'] as const,
  lists: () => [...sinisterKeys.all, 'list'] as const,
  list: (query: SinistersQuery) => [...sinisterKeys.lists(), query] as const,
  details: () => [...sinisterKeys.all, 'detail'] as const,
  detail: (uuid: string) => [...sinisterKeys.details(), uuid] as const,
};

export function getSinisters(query: SinistersQuery, signal?: AbortSignal) {
  return api('/api/sinister', { query, schema: SinisterPageSchema, signal });
}

export function sinistersQueryOptions(query: SinistersQuery) {
  return queryOptions({
    queryKey: sinisterKeys.list(query),
    queryFn: ({ signal }) => getSinisters(query, signal),
    // The current page stays on screen while the next one loads: no flash of an empty table.
    placeholderData: keepPreviousData,
  });
}

/** One page of the organization's claims, keyed on the URL's page, search, sort, period and filters. */
export function useSinisters(query: SinistersQuery) {
  return useQuery(sinistersQueryOptions(query));
}
