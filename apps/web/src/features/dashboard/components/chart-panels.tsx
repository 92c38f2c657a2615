import Box from '@mui/material/Box';
import Link from '@mui/material/Link';
import Typography from '@mui/material/Typography';
import { memo, Suspense, type ReactNode } from 'react';
import { Link as RouterLink } from 'react-router';
import { lazyComponent } from '../../../components/lazy-component';
import { WhenVisible } from '../../../components/when-visible';
import { formatDate, formatEuros, plural } from '../../../lib/format';
import type { ClaimsByGuarantee, ClaimsByResponsibility, FleetSize, MonthlyClaims } from '../api/dashboard-api';
import { claimsUrl, monthInWindow, vehiclesUrl } from '../utils/dashboard-links';
import type { DashboardWindow } from '../utils/dashboard-window';
import { Panel } from './panel';
import { Placeholder } from './placeholder';

// The chart cards' frames, titles and links are in the page's first load; the charts themselves
// (MUI X Charts) come in their own chunk, in a box of their final height (no layout shift).
const MonthlyChart = lazyComponent(() => import('./bar-charts').then((m) => m.MonthlyChart));
const GuaranteeChart = lazyComponent(() => import('./bar-charts').then((m) => m.GuaranteeChart));
const ResponsibilityChart = lazyComponent(() => import('./pie-chart').then((m) => m.ResponsibilityChart));
const FleetChart = lazyComponent(() => import('./line-chart').then((m) => m.FleetChart));

/** The height of the charts' drawing (chart-format.ts CHART_HEIGHT, kept out of the first load). */
const CHART_HEIGHT = 260;

const MONTHS = ['janv.', 'févr.', 'mars', 'avr.', 'mai', 'juin', 'juil.', 'août', 'sept.', 'oct.', 'nov.', 'déc.'];
/** `2026-03` → 'mars 2026'. */
export const monthLabel = (month: string) => `${MONTHS[Number(month.slice(5, 7)) - 1] ?? ''} ${month.slice(0, 4)}`;

/** The responsibility buckets, their words and colours; the register's filter ('me', 'other') where one matches. */
export const RESPONSIBILITY = {
  atFault: { label: 'Responsable (100 %)', color: '#c62828' },
  shared: { label: 'Partagée (25 à 75 %)', color: '#b45309' },
  notAtFault: { label: 'Non responsable (0 %)', color: '#15803d' },
  unknown: { label: 'Non renseignée', color: '#6b7280' },
} as const;

type Status = { pending: boolean; error: Error | null };
/** A figure under a chart: its words, and the records behind it (null: no register filter matches it). */
type Figure = { key: string; text: string; url: string | null; aria?: string };

type ChartPanelProps = {
  id: string;
  title: string;
  status: Status;
  /** Nothing to draw: the panel says so instead of an empty chart. */
  empty: boolean;
  chart: ReactNode;
  /** The chart's figures as links under it: one click, keyboard and screen readers included. */
  figures: { label: string; items: Figure[] };
};

/** One chart of the dashboard: its title, the chart (a lazy chunk, fetched near the screen) in a box of its final height, its figures as links. */
function ChartPanel({ id, title, status, empty, chart, figures }: ChartPanelProps) {
  return (
    <Panel id={id} title={title}>
      <Box sx={{ height: CHART_HEIGHT, display: 'grid', placeItems: empty || status.error ? 'center' : 'stretch', minWidth: 0 }}>
        {status.error ? (
          <Typography color="error">Ce graphique n’a pas pu être chargé : {status.error.message}</Typography>
        ) : status.pending ? (
          <Placeholder height={CHART_HEIGHT} />
        ) : empty ? (
          <Typography color="textSecondary">Aucun sinistre sur la période.</Typography>
        ) : (
          // Drawn when it comes near the screen: a phone's first screen shows the figures, and the
          // charts' chunk and drawing do not hold it up (issue 10).
          <WhenVisible fallback={<Placeholder height={CHART_HEIGHT} />}>
            <Suspense fallback={<Placeholder height={CHART_HEIGHT} />}>{chart}</Suspense>
          </WhenVisible>
        )}
      </Box>
      {!status.pending && !status.error && !empty && (
        <Box component="ul" aria-label={figures.label} sx={{ m: 0, p: 0, listStyle: 'none', display: 'flex', flexWrap: 'wrap', gap: 0.5, columnGap: 2, fontSize: '0.875rem' }}>
          {figures.items.map((item) => (
            <li key={item.key}>
              {item.url ? (
                <Link component={RouterLink} to={item.url} aria-label={item.aria}>
                  {item.text}
                </Link>
              ) : (
                item.text
              )}
            </li>
          ))}
        </Box>
      )}
    </Panel>
  );
}

export type ChartPanelsProps = {
  window: DashboardWindow;
  monthly: { data?: MonthlyClaims } & Status;
  byGuarantee: { data?: ClaimsByGuarantee } & Status;
  byResponsibility: { data?: ClaimsByResponsibility } & Status;
  fleetSize: { data?: FleetSize } & Status;
};

/** Claims and cost per month, cost by guarantee, the responsibility split and the fleet's size over the window. */
export const ChartPanels = memo(function ChartPanels({ window, monthly, byGuarantee, byResponsibility, fleetSize }: ChartPanelsProps) {
  const { declared } = window;
  const months = (monthly.data ?? []).map((m) => ({ ...m, label: monthLabel(m.month), url: claimsUrl({ ...monthInWindow(m.month, window), declared }) }));
  const guarantees = [...(byGuarantee.data ?? [])]
    .sort((a, b) => b.cost - a.cost)
    .map((g) => ({
      key: g.guaranteeUuid ?? 'none',
      label: g.label ?? 'Sans garantie',
      claims: g.claims,
      cost: g.cost,
      url: g.guaranteeUuid ? claimsUrl({ startDate: window.startDate, endDate: window.endDate, declared, guarantee: g.guaranteeUuid }) : null,
    }));
  const buckets = byResponsibility.data ?? [];
  const slices = buckets
    .filter((b) => b.claims > 0)
    .map((b) => ({
      id: b.responsibility,
      label: RESPONSIBILITY[b.responsibility].label,
      color: RESPONSIBILITY[b.responsibility].color,
      claims: b.claims,
      url:
        b.responsibility === 'unknown'
          ? null
          : claimsUrl({ startDate: window.startDate, endDate: window.endDate, declared, responsible: b.responsibility === 'notAtFault' ? 'other' : 'me' }),
    }));
  const tally = (ids: string[]) => buckets.filter((b) => ids.includes(b.responsibility)).reduce((sum, b) => sum + b.claims, 0);
  const engaged = tally(['atFault', 'shared']);
  const notEngaged = tally(['notAtFault']);
  const unknown = tally(['unknown']);
  const points = (fleetSize.data ?? []).map((p) => ({ ...p, label: formatDate(p.date).slice(0, 5) }));
  const noClaims = (rows: { claims: number }[]) => rows.every((r) => r.claims === 0);

  const panels: ChartPanelProps[] = [
    {
      id: 'chart-monthly',
      title: 'Sinistres et coût par mois',
      status: monthly,
      empty: noClaims(months),
      chart: <MonthlyChart months={months} />,
      figures: {
        label: 'Sinistres par mois',
        items: months.map((m) => ({ key: m.month, text: `${m.label} : ${plural(m.claims, 'sinistre')}, ${formatEuros(m.cost)}`, url: m.url })),
      },
    },
    {
      id: 'chart-guarantee',
      title: 'Coût par garantie',
      status: byGuarantee,
      empty: noClaims(guarantees),
      chart: <GuaranteeChart rows={guarantees} />,
      figures: {
        label: 'Sinistres par garantie',
        items: guarantees.map((g) => ({ key: g.key, text: `${g.label} : ${formatEuros(g.cost)} (${plural(g.claims, 'sinistre')})`, url: g.url })),
      },
    },
    {
      id: 'chart-responsibility',
      title: 'Répartition par responsabilité',
      status: byResponsibility,
      empty: noClaims(buckets),
      chart: <ResponsibilityChart slices={slices} />,
      figures: {
        label: 'Sinistres par responsabilité',
        items: [
          { key: 'me', text: `Responsabilité engagée (totale ou partagée) : ${plural(engaged, 'sinistre')}`, url: claimsUrl({ ...window, declared, responsible: 'me' }) },
          { key: 'other', text: `Non responsable : ${plural(notEngaged, 'sinistre')}`, url: claimsUrl({ ...window, declared, responsible: 'other' }) },
          ...(unknown > 0 ? [{ key: 'unknown', text: `Responsabilité non renseignée : ${plural(unknown, 'sinistre')}`, url: null }] : []),
        ],
      },
    },
    {
      id: 'chart-fleet',
      title: 'Taille du parc',
      status: fleetSize,
      empty: false,
      chart: <FleetChart points={points} />,
      figures: {
        label: 'Véhicules dans la flotte',
        items: points.map((p) => ({ key: p.date, text: `${formatDate(p.date)} : ${plural(p.vehicles, 'véhicule')}`, url: vehiclesUrl(p.date) })),
      },
    },
  ];

  return (
    <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: 'minmax(0, 1fr)', md: 'repeat(2, minmax(0, 1fr))' } }}>
      {panels.map((panel) => (
        <ChartPanel key={panel.id} {...panel} />
      ))}
    </Box>
  );
});
