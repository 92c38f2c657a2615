import { BarChart } from '@mui/x-charts/BarChart';
import { useNavigate } from 'react-router';
import { CHART_HEIGHT, count, euros, shortEuros, FRENCH } from './chart-format';

export type MonthlyChartProps = { months: { label: string; claims: number; cost: number; url: string }[] };

/** Claims (bars, left axis) and their cost (bars, right axis) per month. */
export function MonthlyChart({ months }: MonthlyChartProps) {
  const navigate = useNavigate();
  return (
    <BarChart
      height={CHART_HEIGHT}
      localeText={FRENCH}
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
      localeText={FRENCH}
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

