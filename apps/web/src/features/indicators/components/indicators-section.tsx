import { SectionCard } from '../../../components/section-card';
import Add from '@mui/icons-material/Add';
import DeleteOutlined from '@mui/icons-material/DeleteOutlined';
import EditOutlined from '@mui/icons-material/EditOutlined';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import IconButton from '@mui/material/IconButton';
import { formatEuros, type Indicator } from '@flotte/contract';
import { Suspense, useEffect, useRef, useState } from 'react';
import { lazyComponent } from '../../../components/lazy-component';
import { LazyConfirm, LazyConfirmDialog } from '../../../components/register/lazy-confirm-dialog';
import { ResponsiveTable } from '../../../components/responsive-table';
import { snackbar } from '../../../components/snackbar/snackbar';
import { useCurrentUser } from '../../../lib/auth-store';
import { formatCount, formatDate } from '../../../lib/format';
import { isAdministrator } from '../../../lib/permissions';
import { useDeleteIndicator, useIndicators } from '../api/indicators-api';

const IndicatorFormDialog = lazyComponent(() => import('./indicator-form-dialog').then((m) => m.IndicatorFormDialog));

type Editing = { period?: Indicator } | null;
/** The period whose deletion is asked (kept once closed, so the title does not change while the dialog fades out). */
type Deleting = { open: boolean; period?: Indicator };

const periodLabel = (period: Indicator) => `du ${formatDate(period.startDate)} au ${formatDate(period.endDate)}`;

/**
 * "Indicateurs" of the /parameters page: the organization's insurance periods, newest first.
 * Administrators add, edit and delete them (after the registers' confirmation); every member reads them.
 */
export function IndicatorsSection() {
  const periods = useIndicators();
  const remove = useDeleteIndicator();
  const admin = isAdministrator(useCurrentUser());
  const [editing, setEditing] = useState<Editing>(null);
  const [deleting, setDeleting] = useState<Deleting>({ open: false });
  // After a deletion the row and its button are gone: focus goes to 'Ajouter une période' rather than to the page's top.
  const addButton = useRef<HTMLButtonElement>(null);
  const deleted = useRef(false);
  useEffect(() => {
    // After the dialog's own focus restore (its effect's cleanup runs first), to a button that was removed.
    if (deleted.current && !deleting.open) {
      deleted.current = false;
      addButton.current?.focus();
    }
  }, [deleting.open]);

  const deletePeriod = async (period: Indicator) => {
    try {
      await remove.mutateAsync(period.uuid);
    } catch (error) {
      snackbar.show({ type: 'error', title: 'Erreur', description: error instanceof Error ? error.message : "La période n'a pas été supprimée" });
      // The confirmation stays open for another try.
      throw error;
    }
    deleted.current = true;
    setDeleting((current) => ({ ...current, open: false }));
    snackbar.show({ type: 'success', title: 'Période supprimée', description: `La période ${periodLabel(period)}` });
  };

  const doomed = deleting.period;

  return (
    <SectionCard
      id="indicateurs"
      title="Indicateurs"
      description="Chaque période d'assurance (exercice) : le nombre de véhicules assurés à son début et la prime acquise. Le S/P, la fréquence et la demi-différence en découlent."
      action={
        admin && (
          <Button
            ref={addButton}
            startIcon={<Add />}
            variant="outlined"
            onClick={() => setEditing({})}
            onMouseEnter={IndicatorFormDialog.preload}
            onFocus={IndicatorFormDialog.preload}
          >
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
      ) : (
        <ResponsiveTable
          label="Périodes d'assurance"
          rows={periods.data}
          rowKey={(period) => period.uuid}
          title={{ label: 'Période', value: (period) => `Du ${formatDate(period.startDate)} au ${formatDate(period.endDate)}` }}
          columns={[
            { label: 'Véhicules en début', numeric: true, value: (period) => formatCount(period.motorsCount) },
            { label: 'Prime acquise', numeric: true, value: (period) => formatEuros(period.cashReceived) },
          ]}
          actions={
            admin
              ? {
                  label: 'Actions',
                  render: (period) => (
                    <>
                      <IconButton
                        aria-label={`Modifier la période ${periodLabel(period)}`}
                        onClick={() => setEditing({ period })}
                        onMouseEnter={IndicatorFormDialog.preload}
                        onFocus={IndicatorFormDialog.preload}
                      >
                        <EditOutlined />
                      </IconButton>
                      <IconButton
                        aria-label={`Supprimer la période ${periodLabel(period)}`}
                        onClick={() => setDeleting({ open: true, period })}
                        onMouseEnter={LazyConfirm.preload}
                        onFocus={LazyConfirm.preload}
                      >
                        <DeleteOutlined />
                      </IconButton>
                    </>
                  ),
                }
              : undefined
          }
        />
      )}
      {editing && (
        <Suspense fallback={<CircularProgress size={24} aria-label="Chargement du formulaire" />}>
          <IndicatorFormDialog key={editing.period?.uuid ?? 'new'} open period={editing.period} onClose={() => setEditing(null)} />
        </Suspense>
      )}
      <LazyConfirmDialog
        open={deleting.open}
        title={doomed ? `Supprimer la période ${periodLabel(doomed)} ?` : ''}
        description="Cette action est irréversible. Le S/P, la fréquence et la demi-différence ne tiendront plus compte de sa prime ni de ses véhicules."
        confirmLabel="Supprimer la période"
        onConfirm={() => (doomed ? deletePeriod(doomed) : undefined)}
        onClose={() => setDeleting((current) => ({ ...current, open: false }))}
      />
    </SectionCard>
  );
}
