import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Chip from '@mui/material/Chip';
import Typography from '@mui/material/Typography';
import { AUTOMATIC_ALERT_RULE_LABELS, type Alert } from '@flotte/contract';
import { Link as RouterLink } from 'react-router';
import { Markdown } from '../../../components/markdown/markdown';
import { formatDate } from '../../../lib/format';
import { SeverityChip } from './severity-chip';

type AlertCardProps = { alert: Alert; onRead: (alert: Alert) => void; reading: boolean };

/** One alert of /alerts: its severity, whether it is new, why it was raised, and where to look. */
export function AlertCard({ alert, onRead, reading }: AlertCardProps) {
  const headingId = `alerte-${alert.uuid}`;
  const unread = !alert.read;
  return (
    <Card
      component="article"
      aria-labelledby={headingId}
      variant="outlined"
      sx={{ borderLeftWidth: 4, borderLeftColor: unread ? 'primary.main' : 'divider', bgcolor: unread ? 'background.paper' : 'grey.50' }}
    >
      <CardContent sx={{ display: 'grid', gap: 1.25, p: { xs: 2, sm: 2.5 } }}>
        <Box sx={{ display: 'flex', gap: 1, alignItems: 'center', flexWrap: 'wrap' }}>
          <SeverityChip severity={alert.severity} />
          {unread && <Chip label="Non lue" size="small" color="primary" sx={{ fontWeight: 700 }} />}
          {alert.closedAt && <Chip label={`Résolue le ${formatDate(alert.closedAt)}`} size="small" variant="outlined" />}
          <Typography variant="body2" color="textSecondary" sx={{ ml: { sm: 'auto' } }}>
            {alert.source === 'written' ? 'Message de votre courtier' : `Alerte automatique · ${AUTOMATIC_ALERT_RULE_LABELS[alert.rule!]}`} · {formatDate(alert.publishedAt)}
          </Typography>
        </Box>
        <Typography component="h2" variant="h6" id={headingId} sx={{ fontWeight: unread ? 700 : 600, overflowWrap: 'anywhere' }}>
          {alert.title}
        </Typography>
        {alert.source === 'written' ? (
          <Box sx={{ '& > :first-of-type': { mt: 0 }, overflowWrap: 'anywhere' }}>
            <Markdown source={alert.body} headingOffset={2} />
          </Box>
        ) : (
          <Typography variant="body2">{alert.body}</Typography>
        )}
        <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap' }}>
          {alert.link && (
            <Button component={RouterLink} to={alert.link.href} variant="outlined" size="small" onClick={() => unread && onRead(alert)}>
              {alert.link.label}
            </Button>
          )}
          {unread && (
            <Button size="small" onClick={() => onRead(alert)} loading={reading}>
              Marquer comme lue
            </Button>
          )}
        </Box>
      </CardContent>
    </Card>
  );
}
