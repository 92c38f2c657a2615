import { CreateSinisterBodySchema, ListSinistersQuerySchema, SinisterPageSchema, SinisterSchema, UpdateSinisterBodySchema } from '@flotte/contract';
import { registerApi } from '../../../lib/register-api';
import { SINISTERS_VIEW } from '../sinisters-view';

/** /api/sinister: the claims' page (no archive counts), their writes and one claim, from the contract. */
export const sinistersApi = registerApi('sinisters', SINISTERS_VIEW.path, {
  archiveCounts: false,
  // Types from the contract; its schemas check the answers in development and tests only (decision 015).
  schemas: import.meta.env.DEV
    ? { record: SinisterSchema, page: SinisterPageSchema, list: ListSinistersQuerySchema, create: CreateSinisterBodySchema, update: UpdateSinisterBodySchema }
    : undefined,
});

export { SINISTER_FILTERS, type SinisterFilter } from '../sinisters-view';
