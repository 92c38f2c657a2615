import { DriverPageSchema, MAX_LIMIT, VehiculePageSchema } from '@flotte/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

// The claim form picks among the fleet's vehicles and drivers. Features do not import each other
// (lint boundary): the claims read those lists themselves, under the vehicles' and drivers' own
// option keys (lib/query-keys.ts), so any vehicle or driver write refreshes the choices.

/** SPEC 9: fetching all vehicles uses page 1, limit 999. */
export const ALL_VEHICULES_LIMIT = 999;

export function vehiculeOptionsQueryOptions() {
  return queryOptions({
    queryKey: queryKeys.vehicules.options(),
    queryFn: ({ signal }) =>
      api('/api/vehicule', { query: { page: 1, limit: ALL_VEHICULES_LIMIT, sortBy: 'immatriculation' }, schema: VehiculePageSchema, signal }),
    // Drafts (no plate yet) are not in the fleet: the API refuses them on a claim.
    select: (page) => page.data.filter((vehicule) => vehicule.immatriculation),
  });
}

/** The active vehicles of the fleet, for the claim form. */
export function useVehiculeOptions(enabled = true) {
  return useQuery({ ...vehiculeOptionsQueryOptions(), enabled });
}

export function driverOptionsQueryOptions() {
  return queryOptions({
    queryKey: queryKeys.drivers.options(),
    queryFn: ({ signal }) =>
      api('/api/driver', { query: { page: 1, limit: MAX_LIMIT, sortBy: 'lastName' }, schema: DriverPageSchema, signal }),
    select: (page) => page.data,
  });
}

/** The active drivers of the organization, for the claim form. */
export function useDriverOptions(enabled = true) {
  return useQuery({ ...driverOptionsQueryOptions(), enabled });
}
