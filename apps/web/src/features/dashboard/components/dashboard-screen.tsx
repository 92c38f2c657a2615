import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import { useQuery } from '@tanstack/react-query';
import { useCallback, useMemo } from 'react';
import { Link as RouterLink, useSearchParams } from 'react-router';
import { ApiError } from '../../../lib/api-error';
import { claimFrequencyOptions, currentHalfDifferenceOptions, halfDifferencesOptions, useDashboardConfig, windowFigures } from '../api/dashboard-api';
import { readWindow, writeWindow, type DashboardWindow } from '../utils/dashboard-window';
import { ChartPanels } from './chart-panels';
import { HalfDifferencesTable, TopDriversTable } from './dashboard-tables';
import { FigureCards } from './figure-cards';
import { WindowFilter } from './window-filter';

/** The window and the declared filter, from the URL (a shared link keeps them; the defaults stay out of it). */
export function useDashboardWindow(): [DashboardWindow, (window: DashboardWindow) => void] {
  const [params, setParams] = useSearchParams();
  // The same objects while the URL stays: the dashboard's parts are memoized on them.
  const window = useMemo(() => readWindow(params), [params]);
  const setWindow = useCallback((next: DashboardWindow) => setParams((current) => writeWindow(current, next), { replace: true }), [setParams]);
  return [window, setWindow];
}

/** What to enter first, and the button that leads there. */
function EnterFirst({ children }: { children: string }) {
  return (
    <Alert
      severity="info"
      action={
        <Button component={RouterLink} to="/parameters" color="inherit" size="small" sx={{ whiteSpace: 'nowrap' }}>
          Saisir une période
        </Button>
      }
    >
      {children}
    </Alert>
  );
}

/**
 * A chart's state from its query: the same object until its data, its state or the cards' change,
 * so that each of the dashboard's answers re-renders only the part it feeds (issue 10: ten answers
 * arriving one by one re-rendered every card, chart and table each time on a phone's CPU).
 */
function useChart<T>({ data, isPending, error }: { data?: T; isPending: boolean; error: Error | null }, cardsSettled: boolean) {
  const pending = isPending || !cardsSettled;
  return useMemo(() => ({ data, pending, error }), [data, pending, error]);
}

/** The /dashboard screen below its title: the filters, the figures' cards, the charts and tables. */
export function DashboardScreen({ window, onWindowChange }: { window: DashboardWindow; onWindowChange: (window: DashboardWindow) => void }) {
  const figures = windowFigures(window);
  const config = useDashboardConfig();
  const lossRatio = useQuery(figures.lossRatio);
  const periods = useQuery(halfDifferencesOptions());
  const current = useQuery(currentHalfDifferenceOptions());
  const frequency = useQuery(claimFrequencyOptions(window.declared));
  const monthly = useQuery(figures.monthly);
  const byGuarantee = useQuery(figures.byGuarantee);
  const byResponsibility = useQuery(figures.byResponsibility);
  const fleetSize = useQuery(figures.fleetSize);
  const topDrivers = useQuery(figures.topDrivers);

  // No period containing today: the frequency answers 404, which is a state, not a failure.
  const noCurrent = frequency.error instanceof ApiError && frequency.error.status === 404;
  const failed = [config, lossRatio, periods, current, noCurrent ? null : frequency].find((q) => q?.error)?.error;
  const noPeriod = periods.data?.length === 0;
  // The charts' chunk comes once the cards have their figures (or failed to): the cards first.
  const cardsSettled = !lossRatio.isPending && !config.isPending;
  const monthlyChart = useChart(monthly, cardsSettled);
  const byGuaranteeChart = useChart(byGuarantee, cardsSettled);
  const byResponsibilityChart = useChart(byResponsibility, cardsSettled);
  const fleetSizeChart = useChart(fleetSize, cardsSettled);

  return (
    <>
      <WindowFilter window={window} onChange={onWindowChange} />
      {noPeriod ? (
        <EnterFirst>
          Saisissez d’abord votre contrat : une période d’assurance (dates, véhicules assurés au début, prime). Le S/P, la fréquence et la demi-différence en
          dépendent.
        </EnterFirst>
      ) : (
        current.data === null && (
          <EnterFirst>Aucune période ne contient la date du jour : saisissez la période en cours pour suivre la fréquence et la demi-différence.</EnterFirst>
        )
      )}
      {failed && <Alert severity="error">Des indicateurs n’ont pas pu être chargés : {failed.message}</Alert>}
      <Box component="section" aria-labelledby="indicators-title" sx={{ display: 'grid', gap: 2 }}>
        <Typography id="indicators-title" component="h2" variant="h6">
          Vos indicateurs
        </Typography>
        <FigureCards window={window} config={config.data} lossRatio={lossRatio.data} frequency={noCurrent ? null : frequency.data} current={current.data} />
      </Box>
      <Box component="section" aria-labelledby="charts-title" sx={{ display: 'grid', gap: 2 }}>
        <Typography id="charts-title" component="h2" variant="h6">
          Sinistralité
        </Typography>
        <ChartPanels
          window={window}
          monthly={monthlyChart}
          byGuarantee={byGuaranteeChart}
          byResponsibility={byResponsibilityChart}
          fleetSize={fleetSizeChart}
        />
      </Box>
      <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: 'minmax(0, 1fr)' }}>
        <HalfDifferencesTable rows={periods.data} pending={periods.isPending} />
        <TopDriversTable rows={topDrivers.data} pending={topDrivers.isPending} window={window} />
      </Box>
    </>
  );
}
