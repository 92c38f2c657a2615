import { VehiculePageSchema, type VEHICULE_SORT_COLUMNS } from '@flotte/contract';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { RegisterApiQuery } from '../../../components/register/use-list-search-params';
import { api } from '../../../lib/api-client';

export type VehiculeSortColumn = (typeof VEHICULE_SORT_COLUMNS)[number];

/** The URL filters of the vehicles register, named as GET /api/vehicule names them. */
export type VehiculeFilter = 'types' | 'start' | 'end';

/** GET /api/vehicule parameters, as useListSearchParams builds them from the URL. */
export type VehiculesQuery = RegisterApiQuery<VehiculeSortColumn, VehiculeFilter>;

/** Query keys of the vehicles: every mutation invalidates `vehiculeKeys.all`. */
export const vehiculeKeys = {
  all: ['vehicules'] as const,
  lists: () => [...vehiculeKeys.all, 'list'] as const,
  list: (query: VehiculesQuery) => [...vehiculeKeys.lists(), query] as const,
};

export function getVehicules(query: VehiculesQuery, signal?: AbortSignal) {
  return api('/api/vehicule', { query, schema: VehiculePageSchema, signal });
}

export function vehiculesQueryOptions(query: VehiculesQuery) {
  return queryOptions({
    queryKey: vehiculeKeys.list(query),
    queryFn: ({ signal }) => getVehicules(query, signal),
    // The current page stays on screen while the next one loads: no flash of an empty table.
    placeholderData: keepPreviousData,
  });
}

/** One page of the organization's vehicles, keyed on the URL's page, search, sort, archive view and filters. */
export function useVehicules(query: VehiculesQuery) {
  return useQuery(vehiculesQueryOptions(query));
}
