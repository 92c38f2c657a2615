import Box from '@mui/material/Box';
import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
import { memo } from 'react';
import { PeriodFilter } from '../../../components/register/period-filter';
import type { DashboardWindow, DeclaredFilter } from '../utils/dashboard-window';

export type WindowFilterProps = { window: DashboardWindow; onChange: (window: DashboardWindow) => void };

/** The window of the figures ('Du … au …') and the claims counted: declared, not declared or all. */
export const WindowFilter = memo(function WindowFilter({ window, onChange }: WindowFilterProps) {
  return (
    <Box sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'end', gap: 2 }}>
      <Box sx={{ flex: '1 1 320px', maxWidth: 480 }}>
        <PeriodFilter legend="Période" start={window.startDate} end={window.endDate} onChange={({ start, end }) => onChange({ ...window, startDate: start, endDate: end })} />
      </Box>
      <ToggleButtonGroup
        exclusive
        size="small"
        color="primary"
        value={window.declared}
        aria-label="Sinistres comptés"
        onChange={(_, next: DeclaredFilter | null) => {
          if (next) onChange({ ...window, declared: next });
        }}
        sx={{
          bgcolor: 'background.paper',
          '& .MuiToggleButton-root': { px: 1.5, whiteSpace: 'nowrap', color: 'text.secondary' },
          '& .MuiToggleButton-root.Mui-selected': { color: 'primary.dark' },
        }}
      >
        <ToggleButton value="all">Tous</ToggleButton>
        <ToggleButton value="declared">Déclarés</ToggleButton>
        <ToggleButton value="notDeclared">Non déclarés</ToggleButton>
      </ToggleButtonGroup>
    </Box>
  );
});
