import { VEHICULE_SORT_COLUMNS } from '@flotte/contract';
import { listRequest, type ListView } from '../../components/register/list-query';

/** The categories and the time in the fleet, named as GET /api/vehicule names them; no filter by default. */
export const VEHICULE_NO_FILTERS = { types: '', start: '', end: '' };

/** The vehicles' list (/vehicules): its API path, sorts, default sort and filters. */
export const VEHICULES_VIEW: ListView<(typeof VEHICULE_SORT_COLUMNS)[number], keyof typeof VEHICULE_NO_FILTERS> = {
  path: '/api/vehicule',
  sortColumns: VEHICULE_SORT_COLUMNS,
  defaultSort: 'immatriculation',
  filters: () => VEHICULE_NO_FILTERS,
};

/** The page /vehicules asks first, for a cold load (lib/first-requests.ts). */
export const firstRequest = (searchParams: URLSearchParams) => listRequest(VEHICULES_VIEW, searchParams);
