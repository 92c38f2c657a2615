import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import MenuItem from '@mui/material/MenuItem';
import Pagination from '@mui/material/Pagination';
import Skeleton from '@mui/material/Skeleton';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { ALERT_SEVERITIES, ALERT_SEVERITY_LABELS, type AlertSeverity } from '@flotte/contract';
import { useQuery } from '@tanstack/react-query';
import { useSearchParams } from 'react-router';
import { DocumentTitle } from '../../../components/document-title';
import { snackbar } from '../../../components/snackbar/snackbar';
import { alertsQueryOptions, useMarkAlertRead, useMarkAllAlertsRead, useUnreadAlerts } from '../api/alerts-api';
import { AlertCard } from './alert-card';

const isSeverity = (value: string | null): value is AlertSeverity => (ALERT_SEVERITIES as readonly string[]).includes(value ?? '');

/** /alerts: the current organization's prevention alerts, from its broker and from the product, newest first. */
export function AlertsPage() {
  const [params, setParams] = useSearchParams();
  const rawSeverity = params.get('severity');
  const severity = isSeverity(rawSeverity) ? rawSeverity : '';
  const page = Math.max(1, Number(params.get('page')) || 1);
  const list = useQuery(alertsQueryOptions({ severity, page }));
  const unread = useUnreadAlerts();
  const markRead = useMarkAlertRead();
  const markAll = useMarkAllAlertsRead();
  const setFilter = (next: Record<string, string>) => {
    const search = new URLSearchParams(params);
    for (const [name, value] of Object.entries(next)) {
      if (value) search.set(name, value);
      else search.delete(name);
    }
    setParams(search);
  };
  const unreadCount = unread.data?.count ?? 0;
  return (
    <Box sx={{ display: 'grid', gap: 2.5, maxWidth: 960 }}>
      <DocumentTitle title="Alertes prévention" />
      <Box sx={{ display: 'flex', gap: 2, alignItems: 'flex-end', justifyContent: 'space-between', flexWrap: 'wrap' }}>
        <Box>
          <Typography component="h1" variant="h4">
            Alertes prévention
          </Typography>
          <Typography color="textSecondary">
            {unreadCount === 0 ? 'Aucune alerte en cours non lue.' : `${unreadCount} ${unreadCount > 1 ? 'alertes en cours non lues' : 'alerte en cours non lue'}.`} Les messages de votre courtier et les alertes
            levées par FlotteAssur sur vos sinistres, vos limites et vos documents.
          </Typography>
        </Box>
        <Box sx={{ display: 'flex', gap: 1.5, alignItems: 'center', flexWrap: 'wrap' }}>
          <TextField
            select
            size="small"
            label="Gravité"
            value={severity}
            onChange={(event) => setFilter({ severity: event.target.value, page: '' })}
            sx={{ minWidth: 180 }}
          >
            <MenuItem value="">Toutes</MenuItem>
            {ALERT_SEVERITIES.map((value) => (
              <MenuItem key={value} value={value}>
                {ALERT_SEVERITY_LABELS[value]}
              </MenuItem>
            ))}
          </TextField>
          <Button
            variant="outlined"
            disabled={unreadCount === 0}
            loading={markAll.isPending}
            onClick={() =>
              markAll.mutate(undefined, {
                onSuccess: () => snackbar.show({ type: 'success', title: 'Toutes les alertes sont marquées comme lues' }),
                onError: (error) => snackbar.show({ type: 'error', title: 'Erreur', description: error.message }),
              })
            }
          >
            Tout marquer comme lu
          </Button>
        </Box>
      </Box>
      {list.isPending ? (
        <Box sx={{ display: 'grid', gap: 2 }} aria-busy="true" aria-label="Chargement des alertes">
          <Skeleton variant="rounded" height={140} />
          <Skeleton variant="rounded" height={140} />
        </Box>
      ) : list.isError ? (
        <Alert severity="error">Les alertes n'ont pas pu être chargées : {list.error.message}</Alert>
      ) : list.data.data.length === 0 ? (
        <Alert severity="info">{severity ? `Aucune alerte de gravité « ${ALERT_SEVERITY_LABELS[severity]} ».` : 'Aucune alerte pour le moment : tout va bien.'}</Alert>
      ) : (
        <Box component="section" aria-label="Liste des alertes" sx={{ display: 'grid', gap: 2 }}>
          {list.data.data.map((alert) => (
            <AlertCard
              key={alert.uuid}
              alert={alert}
              reading={markRead.isPending && markRead.variables === alert.uuid}
              onRead={(read) => markRead.mutate(read.uuid, { onError: (error) => snackbar.show({ type: 'error', title: 'Erreur', description: error.message }) })}
            />
          ))}
          {list.data.nbOfPages > 1 && (
            <Pagination
              count={list.data.nbOfPages}
              page={page}
              onChange={(_, next) => setFilter({ page: next === 1 ? '' : String(next) })}
              getItemAriaLabel={(type, item) => (type === 'page' ? `Page ${item}` : type === 'next' ? 'Page suivante' : type === 'previous' ? 'Page précédente' : String(type))}
            />
          )}
        </Box>
      )}
    </Box>
  );
}
