import { DriverPageSchema, MAX_LIMIT, VehiculePageSchema } from '@flotte/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

// The claim form picks among the fleet's vehicles and drivers. Features do not import each other
// (lint boundary), so the claims keep their own read of those lists, under their own keys.

/** SPEC 9: fetching all vehicles uses page 1, limit 999. */
export const ALL_VEHICULES_LIMIT = 999;

export function vehiculeOptionsQueryOptions() {
  return queryOptions({
    queryKey: ['sinisters', 'vehicule-options'] as const,
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
    queryKey: ['sinisters', 'driver-options'] as const,
    queryFn: ({ signal }) =>
      api('/api/driver', { query: { page: 1, limit: MAX_LIMIT, sortBy: 'lastName' }, schema: DriverPageSchema, signal }),
    select: (page) => page.data,
  });
}

/** The active drivers of the organization, for the claim form. */
export function useDriverOptions(enabled = true) {
  return useQuery({ ...driverOptionsQueryOptions(), enabled });
}
