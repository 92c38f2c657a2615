import { DriverPageSchema, type DriverSortColumn } from '@flotte/contract';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { RegisterApiQuery } from '../../../components/register/use-list-search-params';
import { api } from '../../../lib/api-client';

/** GET /api/driver parameters, as useListSearchParams builds them from the URL. */
export type DriversQuery = RegisterApiQuery<DriverSortColumn, never>;

/** Query keys of the drivers: every mutation invalidates `driverKeys.all`. */
export const driverKeys = {
  all: ['drivers'] as const,
  lists: () => [...driverKeys.all, 'list'] as const,
  list: (query: DriversQuery) => [...driverKeys.lists(), query] as const,
};

export function getDrivers(query: DriversQuery, signal?: AbortSignal) {
  return api('/api/driver', { query, schema: DriverPageSchema, signal });
}

export function driversQueryOptions(query: DriversQuery) {
  return queryOptions({
    queryKey: driverKeys.list(query),
    queryFn: ({ signal }) => getDrivers(query, signal),
    // The current page stays on screen while the next one loads: no flash of an empty table.
    placeholderData: keepPreviousData,
  });
}

/** One page of the organization's drivers, keyed on the URL's page, search, sort and archive view. */
export function useDrivers(query: DriversQuery) {
  return useQuery(driversQueryOptions(query));
}
