import { SINISTER_SORT_COLUMNS, todayIso } from '@flotte/contract';
import { listRequest, type ListView } from '../../components/register/list-query';

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

/** URL filter → default. The period's defaults move with the calendar, so they stay out of the URL. */
function sinisterFilterDefaults(today: string): Record<SinisterFilter, string> {
  return {
    hasHumanInjury: '',
    damagedVehicule: '',
    isThirdImplicated: '',
    showDeclared: '',
    showNotDeclared: '',
    responsible: '',
    status: '',
    garantee: '',
    driver: '',
    // SPEC 9: from 1 January of the current year to today.
    startDate: `${today.slice(0, 4)}-01-01`,
    endDate: today,
  };
}

/** The claims' list (/sinisters): its API path, sorts, default sort (newest first) and filters. */
export const SINISTERS_VIEW: ListView<(typeof SINISTER_SORT_COLUMNS)[number], SinisterFilter> = {
  path: '/api/sinister',
  sortColumns: SINISTER_SORT_COLUMNS,
  defaultSort: '-sinisterDate',
  filters: () => sinisterFilterDefaults(todayIso()),
};

/** The page /sinisters asks first, for a cold load (lib/first-requests.ts). */
export const firstRequest = (searchParams: URLSearchParams) => listRequest(SINISTERS_VIEW, searchParams);
