import { CreateSinisterBodySchema, ListSinistersQuerySchema, SinisterPageSchema, SinisterSchema, UpdateSinisterBodySchema } from '@flotte/contract';
import { registerApi } from '../../../lib/register-api';

/** /api/sinister: the claims' page (no archive counts), their writes and one claim, from the contract. */
export const sinistersApi = registerApi('sinisters', '/api/sinister', {
  archiveCounts: false,
  // Types from the contract; its schemas check the answers in development and tests only (decision 015).
  schemas: import.meta.env.DEV
    ? { record: SinisterSchema, page: SinisterPageSchema, list: ListSinistersQuerySchema, create: CreateSinisterBodySchema, update: UpdateSinisterBodySchema }
    : undefined,
});

/** The screen's filters, named as GET /api/sinister names them (and as the URL keeps them). */
export const SINISTER_FILTERS = [
  'hasHumanInjury',
  'damagedVehicule',
  'isThirdImplicated',
  'showDeclared',
  'showNotDeclared',
  'responsible',
  'status',
  'garantee',
  /** One driver's claims (the driver's uuid): the dashboard's top drivers open their claims with it. */
  'driver',
  'startDate',
  'endDate',
] as const;
export type SinisterFilter = (typeof SINISTER_FILTERS)[number];
