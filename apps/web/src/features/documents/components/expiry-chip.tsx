import Chip from '@mui/material/Chip';
import { expiryState } from '../../../components/documents/file-kind';
import { expiryLabel, formatShortDate } from '../utils/ged-texts';

/**
 * A file's expiry: red « Expiré le 3 déc. 2026 » once past, orange « Expire le … » within the
 * notice days (30), plain text further away; nothing without a date.
 */
export function ExpiryChip({ expiresOn, today }: { expiresOn: string | null; today?: string }) {
  if (!expiresOn) return null;
  const state = expiryState(expiresOn, today);
  if (state === null) return <span>{formatShortDate(expiresOn)}</span>;
  return <Chip size="small" variant="outlined" color={state === 'expired' ? 'error' : 'warning'} label={expiryLabel(expiresOn, state === 'expired')} />;
}
