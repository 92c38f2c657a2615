import { DriverChoicePageSchema, ListDriverChoicesQuerySchema, ListVehiculeChoicesQuerySchema, VehiculeChoicePageSchema } from '@flotte/contract';
import { recordChoices } from '../../../components/record-picker/record-choices';

// The claim form picks among the fleet's vehicles and drivers. Features do not import each other
// (lint boundary): the claims declare those choices themselves, under the vehicles' and drivers'
// own keys (lib/query-keys.ts), so any vehicle or driver write refreshes them.

/** The vehicles in service (a plate, not archived), by plate; searched by plate in any spelling, brand or model. */
export const vehiculeChoices = recordChoices('vehicules', '/api/vehicule/choices', {
  page: VehiculeChoicePageSchema,
  query: ListVehiculeChoicesQuerySchema,
  sortBy: 'immatriculation',
});

/** The active drivers, by last name; searched by name, e-mail or phone. */
export const driverChoices = recordChoices('drivers', '/api/driver/choices', {
  page: DriverChoicePageSchema,
  query: ListDriverChoicesQuerySchema,
  sortBy: 'lastName',
});
