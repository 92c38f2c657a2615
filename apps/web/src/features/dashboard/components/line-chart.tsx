import { LineChart } from '@mui/x-charts/LineChart';
import { CHART_HEIGHT, count, FRENCH } from './chart-format';

export type FleetChartProps = { points: { label: string; vehicles: number }[] };

/** The fleet's size on the window's first day and at each month's end. */
export function FleetChart({ points }: FleetChartProps) {
  return (
    <LineChart
      height={CHART_HEIGHT}
      localeText={FRENCH}
      skipAnimation
      hideLegend
      xAxis={[{ scaleType: 'point', data: points.map((p) => p.label) }]}
      yAxis={[{ tickMinStep: 1, width: 40 }]}
      series={[{ data: points.map((p) => p.vehicles), label: 'Véhicules', valueFormatter: count, curve: 'linear', color: '#15803d' }]}
    />
  );
}
