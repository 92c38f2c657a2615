import { BarChart } from '@mui/x-charts/BarChart';
import { LineChart } from '@mui/x-charts/LineChart';
import { PieChart } from '@mui/x-charts/PieChart';
import { frFRLocalText } from '@mui/x-charts/locales';
import { useNavigate } from 'react-router';
import { formatCount, formatEuros } from '../../../lib/format';

// MUI X Charts (large) in a chunk of its own, loaded once the figures' cards are on screen
// (chart-panels.tsx renders a skeleton of the same height until then). Every value the charts
// draw is also a link under the chart (chart-panels.tsx): a click on a bar or a slice opens the
// same claims.

export const CHART_HEIGHT = 260;

const euros = (value: number | null) => (value === null ? '' : formatEuros(value));
const count = (value: number | null) => (value === null ? '' : formatCount(value));
/** Axis ticks without cents: « 12 k€ ». */
const shortEuros = (value: number) => (Math.abs(value) >= 1000 ? `${formatCount(Math.round(value / 1000))}\u202fk€` : `${formatCount(Math.round(value))}\u202f€`);

export type MonthlyChartProps = { months: { label: string; claims: number; cost: number; url: string }[] };

/** Claims (bars, left axis) and their cost (bars, right axis) per month. */
export function MonthlyChart({ months }: MonthlyChartProps) {
  const navigate = useNavigate();
  return (
    <BarChart
      height={CHART_HEIGHT}
      localeText={frFRLocalText}
      skipAnimation
      xAxis={[{ scaleType: 'band', data: months.map((m) => m.label) }]}
      yAxis={[
        { id: 'claims', tickMinStep: 1, width: 40 },
        { id: 'cost', position: 'right', valueFormatter: shortEuros, width: 60 },
      ]}
      series={[
        { data: months.map((m) => m.claims), label: 'Sinistres', yAxisId: 'claims', valueFormatter: count, color: '#1d4ed8' },
        { data: months.map((m) => m.cost), label: 'Coût', yAxisId: 'cost', valueFormatter: euros, color: '#b45309' },
      ]}
      onItemClick={(_, item) => {
        const month = months[item.dataIndex];
        if (month) void navigate(month.url);
      }}
    />
  );
}

export type GuaranteeChartProps = { rows: { label: string; cost: number; url: string | null }[] };

/** The cost of the claims per guarantee, the largest first (horizontal bars). */
export function GuaranteeChart({ rows }: GuaranteeChartProps) {
  const navigate = useNavigate();
  return (
    <BarChart
      height={CHART_HEIGHT}
      localeText={frFRLocalText}
      skipAnimation
      layout="horizontal"
      hideLegend
      yAxis={[{ scaleType: 'band', data: rows.map((r) => r.label), width: 150 }]}
      xAxis={[{ valueFormatter: shortEuros }]}
      series={[{ data: rows.map((r) => r.cost), label: 'Coût', valueFormatter: euros, color: '#b45309' }]}
      onItemClick={(_, item) => {
        const url = rows[item.dataIndex]?.url;
        if (url) void navigate(url);
      }}
    />
  );
}

export type ResponsibilityChartProps = { slices: { id: string; label: string; claims: number; color: string; url: string | null }[] };

/** The claims by responsibility (a ring). */
export function ResponsibilityChart({ slices }: ResponsibilityChartProps) {
  const navigate = useNavigate();
  return (
    <PieChart
      height={CHART_HEIGHT}
      localeText={frFRLocalText}
      skipAnimation
      series={[
        {
          innerRadius: 50,
          paddingAngle: 1,
          data: slices.map((s) => ({ id: s.id, value: s.claims, label: s.label, color: s.color })),
          valueFormatter: (item) => count(item.value),
        },
      ]}
      onItemClick={(_, item) => {
        const url = slices[item.dataIndex]?.url;
        if (url) void navigate(url);
      }}
    />
  );
}

export type FleetChartProps = { points: { label: string; vehicles: number }[] };

/** The fleet's size on the window's first day and at each month's end. */
export function FleetChart({ points }: FleetChartProps) {
  return (
    <LineChart
      height={CHART_HEIGHT}
      localeText={frFRLocalText}
      skipAnimation
      hideLegend
      xAxis={[{ scaleType: 'point', data: points.map((p) => p.label) }]}
      yAxis={[{ tickMinStep: 1, width: 40 }]}
      series={[{ data: points.map((p) => p.vehicles), label: 'Véhicules', valueFormatter: count, color: '#15803d' }]}
    />
  );
}
