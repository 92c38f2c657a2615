import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import { todayIso, vehiculeDateIssues, type Vehicule } from '@flotte/contract';
import { useId, useState } from 'react';
import { DateField, INVALID_DATE, INVALID_DATE_MESSAGE } from '../../../components/date-field';
import { useRecordDialog } from '../../../components/register/record-dialog';
import type { ArchiveFlow } from '../../../components/register/use-register-actions';
import { ApiError } from '../../../lib/api-error';
import { formatDate } from '../../../lib/format';
import { vehiculesApi } from '../api/vehicules-api';
import { VEHICULE_TEXTS, vehiculeName } from '../utils/vehicule-texts';

export type VehiculeArchiveDialogProps = {
  /** The vehicle to archive; closed when null. */
  vehicule: Vehicule | null;
  /** useRegisterActions' archive-then-'Annuler' (snackbars included), given this register's archive and restore. */
  archiveWithUndo: (vehicule: Vehicule, flow: ArchiveFlow) => Promise<boolean>;
  onClose: () => void;
};

function exitDateError(vehicule: Vehicule, exitDate: string | null): string | null {
  if (!exitDate) return 'La date de sortie est obligatoire';
  if (exitDate === INVALID_DATE) return INVALID_DATE_MESSAGE;
  return vehiculeDateIssues({ entryDate: vehicule.entryDate, exitDate }).find((issue) => issue.path === 'exitDate')?.message ?? null;
}

/**
 * Archives with the chosen exit date; 'Annuler' in the snackbar puts the vehicle back as it was:
 * in the fleet, with its former exit date (usually none; the restore clears the one archiving set).
 * Resolves true once archived; rejects with the API's error when it is about the exit date (shown
 * under the field), resolves false for any other failure (the snackbar told it).
 */
function useArchiveWithExitDate(archiveWithUndo: VehiculeArchiveDialogProps['archiveWithUndo']) {
  const archive = vehiculesApi.useArchive();
  const restore = vehiculesApi.useRestore();
  const update = vehiculesApi.useUpdate();
  return async (vehicule: Vehicule, exitDate: string) => {
    let failure: unknown;
    const archived = await archiveWithUndo(vehicule, {
      archive: () =>
        archive.mutateAsync({ uuid: vehicule.uuid, query: { exitDate } }).catch((error: unknown) => {
          failure = error;
          throw error;
        }),
      restore: async () => {
        const restored = await restore.mutateAsync(vehicule.uuid);
        if (restored.exitDate !== vehicule.exitDate) await update.mutateAsync({ uuid: vehicule.uuid, body: { exitDate: vehicule.exitDate } });
      },
      archivedDescription: `${VEHICULE_TEXTS.gone(vehiculeName(vehicule))} Sortie de la flotte : ${formatDate(exitDate)}.`,
    });
    if (!archived && failure instanceof ApiError && failure.details.some((detail) => detail.path === 'exitDate')) throw failure;
    return archived;
  };
}

type ArchiveFormProps = { vehicule: Vehicule; descriptionId: string } & Omit<VehiculeArchiveDialogProps, 'vehicule'>;

function ArchiveForm({ vehicule, descriptionId, archiveWithUndo, onClose }: ArchiveFormProps) {
  const archive = useArchiveWithExitDate(archiveWithUndo);
  // A planned exit already recorded is the likely answer; otherwise the vehicle leaves today.
  const [exitDate, setExitDate] = useState<string | null>(vehicule.exitDate ?? todayIso());
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const confirm = async () => {
    const problem = exitDateError(vehicule, exitDate);
    if (problem || !exitDate) {
      setError(problem);
      return;
    }
    setBusy(true);
    try {
      if (await archive(vehicule, exitDate)) onClose();
    } catch (failure) {
      const detail = failure instanceof ApiError ? failure.details.find((d) => d.path === 'exitDate') : undefined;
      if (detail) setError(detail.message);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Box
      component="form"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        void confirm();
      }}
    >
      <DialogContent sx={{ display: 'grid', gap: 2.5, pt: 0 }}>
        <DialogContentText id={descriptionId}>
          Le véhicule sort de la flotte à cette date, qui compte dans la demi-différence de la période. Il n’apparaît plus parmi
          les véhicules actifs ; votre courtier n’est pas prévenu automatiquement.
        </DialogContentText>
        <DateField
          name="exitDate"
          label="Date de sortie de la flotte"
          required
          value={exitDate}
          onChange={(next) => {
            setExitDate(next);
            setError(null);
          }}
          error={error ?? undefined}
          minDate={vehicule.entryDate ?? undefined}
          helperText={vehicule.entryDate ? `Entré dans la flotte le ${formatDate(vehicule.entryDate)}` : undefined}
        />
      </DialogContent>
      <DialogActions sx={{ px: 3, pb: 2, flexWrap: 'wrap', gap: 1 }}>
        <Button onClick={onClose} disabled={busy}>
          Annuler
        </Button>
        <Button type="submit" variant="contained" loading={busy}>
          Archiver
        </Button>
      </DialogActions>
    </Box>
  );
}

/** 'Archiver': asks for the exit date (the vehicle's planned one, or today), then archives. */
export function VehiculeArchiveDialog({ vehicule: current, archiveWithUndo, onClose }: VehiculeArchiveDialogProps) {
  const { record: vehicule, titleId, dialog } = useRecordDialog(current, onClose);
  const descriptionId = useId();
  return (
    <Dialog {...dialog} aria-describedby={descriptionId} maxWidth="xs">
      {vehicule && (
        <>
          <DialogTitle id={titleId}>
            {/* Neither the plate nor its question mark split across lines. */}
            Archiver le véhicule <Box component="span" sx={{ whiteSpace: 'nowrap' }}>{`${vehiculeName(vehicule)} ?`}</Box>
          </DialogTitle>
          <ArchiveForm key={vehicule.uuid} vehicule={vehicule} descriptionId={descriptionId} archiveWithUndo={archiveWithUndo} onClose={onClose} />
        </>
      )}
    </Dialog>
  );
}
