import { SectionCard } from '../../../components/section-card';
import Add from '@mui/icons-material/Add';
import DeleteOutlined from '@mui/icons-material/DeleteOutlined';
import EditOutlined from '@mui/icons-material/EditOutlined';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import IconButton from '@mui/material/IconButton';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { useTheme } from '@mui/material/styles';
import useMediaQuery from '@mui/material/useMediaQuery';
import { formatEuros, type Indicator } from '@flotte/contract';
import { Suspense, useState } from 'react';
import { lazyComponent } from '../../../components/lazy-component';
import { snackbar } from '../../../components/snackbar/snackbar';
import { useCurrentUser } from '../../../lib/auth-store';
import { formatDate, plural } from '../../../lib/format';
import { canHardDelete as isAdministrator } from '../../../lib/permissions';
import { useDeleteIndicator, useIndicators } from '../api/indicators-api';

const IndicatorFormDialog = lazyComponent(() => import('./indicator-form-dialog').then((m) => m.IndicatorFormDialog));

type Editing = { period?: Indicator } | null;

/**
 * "Indicateurs" of the /parameters page: the organization's insurance periods, newest first.
 * Administrators add, edit and delete them; every member reads them.
 */
export function IndicatorsSection() {
  const periods = useIndicators();
  const remove = useDeleteIndicator();
  const admin = isAdministrator(useCurrentUser());
  const [editing, setEditing] = useState<Editing>(null);
  // On a phone one line per period, its figures under it: a table's four columns would not fit.
  const phone = useMediaQuery(useTheme().breakpoints.down('sm'), { noSsr: true });

  const onDelete = async (period: Indicator) => {
    if (!window.confirm(`Supprimer la période du ${formatDate(period.startDate)} au ${formatDate(period.endDate)} ?`)) return;
    try {
      await remove.mutateAsync(period.uuid);
      snackbar.show({ type: 'success', title: 'Période supprimée' });
    } catch (error) {
      snackbar.show({ type: 'error', title: 'Erreur', description: error instanceof Error ? error.message : "La période n'a pas été supprimée" });
    }
  };

  return (
    <SectionCard
      id="indicateurs"
      title="Indicateurs"
      description="Chaque période d'assurance (exercice) : le nombre de véhicules assurés à son début et la prime acquise. Le S/P, la fréquence et la demi-différence en découlent."
      action={
        admin && (
          <Button startIcon={<Add />} variant="outlined" onClick={() => setEditing({})} onMouseEnter={IndicatorFormDialog.preload} onFocus={IndicatorFormDialog.preload}>
            Ajouter une période
          </Button>
        )
      }
    >
      {periods.isPending ? (
        <CircularProgress size={24} aria-label="Chargement des périodes" />
      ) : periods.isError ? (
        <Alert severity="error">Les périodes n'ont pas pu être chargées : {periods.error.message}</Alert>
      ) : periods.data.length === 0 ? (
        <Alert severity="info">Aucune période pour l'instant.{admin ? ' Ajoutez la période en cours pour alimenter le tableau de bord.' : ''}</Alert>
      ) : phone ? (
        <Box component="ul" aria-label="Périodes d'assurance" sx={{ display: 'grid', gap: 1, listStyle: 'none', m: 0, p: 0 }}>
          {periods.data.map((period) => {
            const label = `du ${formatDate(period.startDate)} au ${formatDate(period.endDate)}`;
            return (
              <Box component="li" key={period.uuid} sx={{ display: 'flex', alignItems: 'center', gap: 1, py: 1, borderTop: 1, borderColor: 'divider' }}>
                <Box sx={{ flex: 1, minWidth: 0 }}>
                  <Typography sx={{ fontWeight: 600 }}>
                    {formatDate(period.startDate)} → {formatDate(period.endDate)}
                  </Typography>
                  <Typography variant="body2" color="textSecondary">
                    {plural(period.motorsCount, 'véhicule')} en début · {formatEuros(period.cashReceived)} de prime acquise
                  </Typography>
                </Box>
                {admin && (
                  <Box sx={{ display: 'flex', flexShrink: 0 }}>
                    <IconButton aria-label={`Modifier la période ${label}`} onClick={() => setEditing({ period })} onMouseEnter={IndicatorFormDialog.preload}>
                      <EditOutlined />
                    </IconButton>
                    <IconButton aria-label={`Supprimer la période ${label}`} onClick={() => void onDelete(period)}>
                      <DeleteOutlined />
                    </IconButton>
                  </Box>
                )}
              </Box>
            );
          })}
        </Box>
      ) : (
        <Box sx={{ overflowX: 'auto' }}>
          <Table size="small" aria-labelledby="indicateurs-titre">
            <TableHead>
              <TableRow>
                <TableCell>Période</TableCell>
                <TableCell align="right">Véhicules en début</TableCell>
                <TableCell align="right">Prime acquise</TableCell>
                {admin && <TableCell align="right">Actions</TableCell>}
              </TableRow>
            </TableHead>
            <TableBody>
              {periods.data.map((period) => {
                const label = `du ${formatDate(period.startDate)} au ${formatDate(period.endDate)}`;
                return (
                  <TableRow key={period.uuid}>
                    <TableCell>Du {formatDate(period.startDate)} au {formatDate(period.endDate)}</TableCell>
                    <TableCell align="right">{period.motorsCount}</TableCell>
                    <TableCell align="right">{formatEuros(period.cashReceived)}</TableCell>
                    {admin && (
                      <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>
                        <IconButton aria-label={`Modifier la période ${label}`} onClick={() => setEditing({ period })} onMouseEnter={IndicatorFormDialog.preload}>
                          <EditOutlined />
                        </IconButton>
                        <IconButton aria-label={`Supprimer la période ${label}`} onClick={() => void onDelete(period)}>
                          <DeleteOutlined />
                        </IconButton>
                      </TableCell>
                    )}
                  </TableRow>
                );
              })}
            </TableBody>
          </Table>
        </Box>
      )}
      {editing && (
        <Suspense fallback={<CircularProgress size={24} aria-label="Chargement du formulaire" />}>
          <IndicatorFormDialog key={editing.period?.uuid ?? 'new'} open period={editing.period} onClose={() => setEditing(null)} />
        </Suspense>
      )}
    </SectionCard>
  );
}
