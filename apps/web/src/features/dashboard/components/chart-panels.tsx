import Box from '@mui/material/Box';
import Card from '@mui/material/Card';
import Link from '@mui/material/Link';
import Typography from '@mui/material/Typography';
import { Suspense, type ReactNode } from 'react';
import { Link as RouterLink } from 'react-router';
import { lazyComponent } from '../../../components/lazy-component';
import { formatDate, formatEuros, plural } from '../../../lib/format';
import type { ClaimsByGuarantee, ClaimsByResponsibility, FleetSize, MonthlyClaims } from '../api/dashboard-api';
import { claimsUrl, monthInWindow, vehiclesUrl } from '../utils/dashboard-links';
import type { DashboardWindow } from '../utils/dashboard-window';
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

function ChartCard({ title, id, status, empty, chart, links }: { title: string; id: string; status: Status; empty: boolean; chart: ReactNode; links?: ReactNode }) {
  return (
    <Card component="section" aria-labelledby={id} sx={{ p: 2, display: 'grid', gap: 1, alignContent: 'start', minWidth: 0 }}>
      <Typography id={id} component="h3" variant="subtitle1" sx={{ fontWeight: 700 }}>
        {title}
      </Typography>
      <Box sx={{ height: CHART_HEIGHT, display: 'grid', placeItems: empty || status.error ? 'center' : 'stretch', minWidth: 0 }}>
        {status.error ? (
          <Typography color="error">Ce graphique n’a pas pu être chargé : {status.error.message}</Typography>
        ) : status.pending ? (
          <Placeholder height={CHART_HEIGHT} />
        ) : empty ? (
          <Typography color="textSecondary">Aucun sinistre sur la période.</Typography>
        ) : (
          <Suspense fallback={<Placeholder height={CHART_HEIGHT} />}>{chart}</Suspense>
        )}
      </Box>
      {!status.pending && !empty && links}
    </Card>
  );
}

/** The figures under a chart, each a link to the records behind it: one click, keyboard and screen readers included. */
function FigureLinks({ label, items }: { label: string; items: { key: string; text: string; url: string | null; aria?: string }[] }) {
  return (
    <Box component="ul" aria-label={label} sx={{ m: 0, p: 0, listStyle: 'none', display: 'flex', flexWrap: 'wrap', gap: 0.5, columnGap: 2, fontSize: '0.875rem' }}>
      {items.map((item) => (
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
export function ChartPanels({ window, monthly, byGuarantee, byResponsibility, fleetSize }: ChartPanelsProps) {
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

  return (
    <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: 'minmax(0, 1fr)', md: 'repeat(2, minmax(0, 1fr))' } }}>
      <ChartCard
        id="chart-monthly"
        title="Sinistres et coût par mois"
        status={monthly}
        empty={noClaims(months)}
        chart={<MonthlyChart months={months} />}
        links={
          <FigureLinks
            label="Sinistres par mois"
            items={months.map((m) => ({
              key: m.month,
              text: `${m.label} : ${plural(m.claims, 'sinistre')}, ${formatEuros(m.cost)}`,
              url: m.url,
            }))}
          />
        }
      />
      <ChartCard
        id="chart-guarantee"
        title="Coût par garantie"
        status={byGuarantee}
        empty={noClaims(guarantees)}
        chart={<GuaranteeChart rows={guarantees} />}
        links={<FigureLinks label="Sinistres par garantie" items={guarantees.map((g) => ({ key: g.key, text: `${g.label} : ${formatEuros(g.cost)} (${plural(g.claims, 'sinistre')})`, url: g.url }))} />}
      />
      <ChartCard
        id="chart-responsibility"
        title="Répartition par responsabilité"
        status={byResponsibility}
        empty={noClaims(buckets)}
        chart={<ResponsibilityChart slices={slices} />}
        links={
          <FigureLinks
            label="Sinistres par responsabilité"
            items={[
              { key: 'me', text: `Responsabilité engagée (totale ou partagée) : ${plural(engaged, 'sinistre')}`, url: claimsUrl({ ...window, declared, responsible: 'me' }) },
              { key: 'other', text: `Non responsable : ${plural(notEngaged, 'sinistre')}`, url: claimsUrl({ ...window, declared, responsible: 'other' }) },
              ...(unknown > 0 ? [{ key: 'unknown', text: `Responsabilité non renseignée : ${plural(unknown, 'sinistre')}`, url: null }] : []),
            ]}
          />
        }
      />
      <ChartCard
        id="chart-fleet"
        title="Taille du parc"
        status={fleetSize}
        empty={false}
        chart={<FleetChart points={points} />}
        links={
          <FigureLinks
            label="Véhicules dans la flotte"
            items={points.map((p) => ({ key: p.date, text: `${formatDate(p.date)} : ${plural(p.vehicles, 'véhicule')}`, url: vehiclesUrl(p.date) }))}
          />
        }
      />
    </Box>
  );
}
