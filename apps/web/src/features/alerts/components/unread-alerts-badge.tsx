import Box from '@mui/material/Box';
import { useUnreadAlerts } from '../api/alerts-api';

/**
 * The sidebar's count of unread prevention alerts, beside « Alertes prévention ». Loaded lazily by
 * the sidebar (its own chunk, with the alerts' API module): the logged layout's first load stays
 * as it was, and the count arrives a moment after the menu.
 */
export function UnreadAlertsBadge() {
  const unread = useUnreadAlerts();
  const count = unread.data?.count ?? 0;
  if (count === 0) return null;
  const shown = count > 99 ? '99+' : String(count);
  return (
    <Box
      component="span"
      data-testid="unread-alerts-badge"
      aria-label={`${count} ${count > 1 ? 'alertes non lues' : 'alerte non lue'}`}
      sx={{ ml: 1, minWidth: 22, height: 22, px: 0.75, borderRadius: 11, bgcolor: 'error.main', color: 'error.contrastText', fontSize: 12, fontWeight: 700, display: 'inline-flex', alignItems: 'center', justifyContent: 'center' }}
    >
      <span aria-hidden>{shown}</span>
    </Box>
  );
}
