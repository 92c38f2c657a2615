import { PieChart } from '@mui/x-charts/PieChart';
import { useNavigate } from 'react-router';
import { CHART_HEIGHT, count, FRENCH } from './chart-format';

export type ResponsibilityChartProps = { slices: { id: string; label: string; claims: number; color: string; url: string | null }[] };

/** The claims by responsibility (a ring). */
export function ResponsibilityChart({ slices }: ResponsibilityChartProps) {
  const navigate = useNavigate();
  return (
    <PieChart
      height={CHART_HEIGHT}
      localeText={FRENCH}
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

