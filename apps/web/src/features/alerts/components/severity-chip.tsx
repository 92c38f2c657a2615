import Chip from '@mui/material/Chip';
import { ALERT_SEVERITY_LABELS, type AlertSeverity } from '@flotte/contract';

const COLORS: Readonly<Record<AlertSeverity, 'info' | 'warning' | 'error'>> = { information: 'info', attention: 'warning', urgent: 'error' };

/** The severity in words and colour (never colour alone). */
export function SeverityChip({ severity }: { severity: AlertSeverity }) {
  return <Chip label={ALERT_SEVERITY_LABELS[severity]} size="small" color={COLORS[severity]} variant={severity === 'urgent' ? 'filled' : 'outlined'} sx={{ fontWeight: 700 }} />;
}
