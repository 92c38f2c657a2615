import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Typography from '@mui/material/Typography';
import { ALERT_TARGET_RULE_LABELS, type PreventionAlert } from '@flotte/contract';
import { useState } from 'react';
import { SectionCard } from '../../../components/section-card';
import { snackbar } from '../../../components/snackbar/snackbar';
import { formatDateTime } from '../../../lib/format';
import { useDeletePreventionAlert, usePreventionAlert, usePreventionAlerts } from '../api/alerts-api';
import { PreventionAlertForm } from './prevention-alert-form';
import { SeverityChip } from './severity-chip';

/** Not out yet: its publication date is still to come. */
const isScheduled = (alert: PreventionAlert) => new Date(alert.publishAt).getTime() > Date.now();

const plural = (n: number, one: string, many: string) => `${n} ${n > 1 ? many : one}`;

function targetWords(alert: PreventionAlert): string {
  if (alert.targetKind === 'all') return 'Toutes les organisations';
  if (alert.targetKind === 'organizations') return 'Organisations choisies';
  return `Condition : ${ALERT_TARGET_RULE_LABELS[alert.targetRule!]}`;
}

/** Who read one alert, organization by organization. */
function ReadersDialog({ environment, alert, onClose }: { environment: string; alert: PreventionAlert; onClose: () => void }) {
  const detail = usePreventionAlert(environment, alert.uuid);
  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="sm" aria-labelledby="readers-title">
      <DialogTitle id="readers-title">Lectures : {alert.title}</DialogTitle>
      <DialogContent dividers>
        {detail.isPending ? (
          <CircularProgress size={24} aria-label="Chargement des lectures" />
        ) : detail.isError ? (
          <Alert severity="error">{detail.error.message}</Alert>
        ) : (
          <Box component="ul" sx={{ m: 0, p: 0, listStyle: 'none', display: 'grid', gap: 1.5 }}>
            {detail.data.recipients.map((recipient) => (
              <Box component="li" key={recipient.organization.uuid}>
                <Typography sx={{ fontWeight: 700 }}>
                  {recipient.organization.title} · {recipient.readers.length === 0 ? 'non lue' : plural(recipient.readers.length, 'lecteur', 'lecteurs')}
                </Typography>
                {recipient.readers.map((reader) => (
                  <Typography key={reader.uuid} variant="body2" color="textSecondary">
                    {reader.firstName} {reader.lastName} ({reader.email}), le {formatDateTime(reader.readAt)}
                  </Typography>
                ))}
              </Box>
            ))}
          </Box>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>Fermer</Button>
      </DialogActions>
    </Dialog>
  );
}

/** The « Alertes » tab of /superadmin/alerts: write an alert, follow those written. */
export function PreventionAlertsAdmin({ environment }: { environment: string }) {
  const alerts = usePreventionAlerts(environment);
  const remove = useDeletePreventionAlert(environment);
  const [readersOf, setReadersOf] = useState<PreventionAlert | null>(null);
  const [removing, setRemoving] = useState<PreventionAlert | null>(null);
  return (
    <Box sx={{ display: 'grid', gap: 3 }}>
      <SectionCard id="rediger" title="Rédiger une alerte" description="Un message de prévention pour vos clients : ils le lisent dans « Alertes prévention ».">
        <PreventionAlertForm environment={environment} />
      </SectionCard>
      <SectionCard id="publiees" title="Alertes publiées et programmées">
        {alerts.isPending ? (
          <CircularProgress size={24} aria-label="Chargement des alertes" />
        ) : alerts.isError ? (
          <Alert severity="error">Les alertes n'ont pas pu être chargées : {alerts.error.message}</Alert>
        ) : alerts.data.data.length === 0 ? (
          <Typography color="textSecondary">Aucune alerte rédigée pour le moment.</Typography>
        ) : (
          <Box component="ul" sx={{ m: 0, p: 0, listStyle: 'none', display: 'grid', gap: 1.5 }}>
            {alerts.data.data.map((alert) => {
              const scheduled = isScheduled(alert);
              return (
                <Box component="li" key={alert.uuid} sx={{ border: 1, borderColor: 'divider', borderRadius: 2, p: 2, display: 'grid', gap: 0.75 }}>
                  <Box sx={{ display: 'flex', gap: 1, alignItems: 'center', flexWrap: 'wrap' }}>
                    <SeverityChip severity={alert.severity} />
                    <Typography component="h3" sx={{ fontWeight: 700, overflowWrap: 'anywhere' }}>
                      {alert.title}
                    </Typography>
                  </Box>
                  <Typography variant="body2" color="textSecondary">
                    {scheduled ? 'Programmée pour le' : 'Publiée le'} {formatDateTime(alert.publishAt)} · {targetWords(alert)}
                    {alert.author ? ` · par ${alert.author.firstName} ${alert.author.lastName}` : ''}
                  </Typography>
                  <Typography variant="body2">
                    Lue dans {alert.organizationsRead} organisation{alert.organizationsRead > 1 ? 's' : ''} sur {alert.organizations} · {plural(alert.readers, 'lecteur', 'lecteurs')}
                  </Typography>
                  <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap' }}>
                    <Button size="small" variant="outlined" onClick={() => setReadersOf(alert)}>
                      Voir les lectures
                    </Button>
                    <Button size="small" color="error" onClick={() => setRemoving(alert)}>
                      Retirer
                    </Button>
                  </Box>
                </Box>
              );
            })}
          </Box>
        )}
      </SectionCard>
      {readersOf && <ReadersDialog environment={environment} alert={readersOf} onClose={() => setReadersOf(null)} />}
      {removing && (
        <Dialog open onClose={() => setRemoving(null)} aria-labelledby="remove-title">
          <DialogTitle id="remove-title">Retirer l'alerte « {removing.title} » ?</DialogTitle>
          <DialogContent>
            <Typography>Elle disparaîtra des alertes de toutes les organisations qui l'ont reçue.</Typography>
          </DialogContent>
          <DialogActions>
            <Button onClick={() => setRemoving(null)}>Annuler</Button>
            <Button
              color="error"
              variant="contained"
              loading={remove.isPending}
              onClick={() =>
                remove.mutate(removing.uuid, {
                  onSuccess: () => {
                    snackbar.show({ type: 'success', title: 'Alerte retirée' });
                    setRemoving(null);
                  },
                  onError: (error) => snackbar.show({ type: 'error', title: 'Erreur', description: error.message }),
                })
              }
            >
              Retirer
            </Button>
          </DialogActions>
        </Dialog>
      )}
    </Box>
  );
}
