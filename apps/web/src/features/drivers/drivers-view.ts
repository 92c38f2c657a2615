import { DRIVER_SORT_COLUMNS } from '@flotte/contract';
import { listRequest, type ListView } from '../../components/register/list-query';

/** The drivers' list (/drivers): its API path, sorts and default sort. */
export const DRIVERS_VIEW: ListView<(typeof DRIVER_SORT_COLUMNS)[number]> = { path: '/api/driver', sortColumns: DRIVER_SORT_COLUMNS, defaultSort: 'lastName' };

/** The page /drivers asks first, for a cold load (lib/first-requests.ts). */
export const firstRequest = (searchParams: URLSearchParams) => listRequest(DRIVERS_VIEW, searchParams);
