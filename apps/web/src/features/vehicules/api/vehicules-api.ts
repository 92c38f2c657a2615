import {
  ArchiveVehiculeQuerySchema,
  CreateVehiculeBodySchema,
  ListVehiculesQuerySchema,
  UpdateVehiculeBodySchema,
  VehiculePageSchema,
  VehiculeSchema,
} from '@flotte/contract';
import { registerApi } from '../../../lib/register-api';
import { VEHICULES_VIEW } from '../vehicules-view';

/**
 * /api/vehicule: the fleet's page and its writes, from the contract. Archiving takes the exit date
 * (DELETE ?exitDate=, today without it); a restore clears it. Every write refreshes the claims too:
 * they show the plate, and the claim form offers the vehicles.
 */
export const vehiculesApi = registerApi('vehicules', VEHICULES_VIEW.path, {
  archiveCounts: true,
  // Types from the contract; its schemas check the answers in development and tests only (decision 015).
  schemas: import.meta.env.DEV
    ? {
        record: VehiculeSchema,
        page: VehiculePageSchema,
        list: ListVehiculesQuerySchema,
        create: CreateVehiculeBodySchema,
        update: UpdateVehiculeBodySchema,
        archive: ArchiveVehiculeQuerySchema,
      }
    : undefined,
});
