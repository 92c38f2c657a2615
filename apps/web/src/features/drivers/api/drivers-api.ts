import { CreateDriverBodySchema, DriverPageSchema, DriverSchema, ListDriversQuerySchema, UpdateDriverBodySchema } from '@flotte/contract';
import { registerApi } from '../../../lib/register-api';
import { DRIVERS_VIEW } from '../drivers-view';

/** /api/driver: the register's page and its writes (each refreshes what shows drivers), from the contract. */
export const driversApi = registerApi('drivers', DRIVERS_VIEW.path, {
  archiveCounts: true,
  // Types from the contract; its schemas check the answers in development and tests only (decision 015).
  schemas: import.meta.env.DEV
    ? { record: DriverSchema, page: DriverPageSchema, list: ListDriversQuerySchema, create: CreateDriverBodySchema, update: UpdateDriverBodySchema }
    : undefined,
});
