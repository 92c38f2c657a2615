import Chip from '@mui/material/Chip';
import { SINISTER_STATUS_LABELS, type SinisterStatus } from '@flotte/contract';

/** A border colour by status; the text stays dark (AA contrast) and always says the status: never colour alone. */
const BORDER: Record<SinisterStatus, string> = {
  open: 'info.main',
  inProgress: 'warning.main',
  closed: 'success.main',
  refused: 'text.secondary',
};

export function SinisterStatusChip({ status }: { status: SinisterStatus }) {
  return (
    <Chip
      label={SINISTER_STATUS_LABELS[status]}
      size="small"
      variant="outlined"
      sx={{ fontWeight: 600, color: 'text.primary', borderColor: BORDER[status], borderWidth: 2, bgcolor: 'background.paper' }}
    />
  );
}
