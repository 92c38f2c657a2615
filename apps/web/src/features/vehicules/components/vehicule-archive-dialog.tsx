import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import { todayIso, vehiculeDateIssues, type Vehicule } from '@flotte/contract';
import { useId, useState } from 'react';
import { ApiError } from '../../../lib/api-error';
import { formatDate } from '../../../lib/format';
import { INVALID_DATE, INVALID_DATE_MESSAGE, IsoDateField } from './iso-date-field';
import { vehiculeName } from './vehicules-table';

export type VehiculeArchiveDialogProps = {
  /** The vehicle to archive; closed when null. */
  vehicule: Vehicule | null;
  /**
   * Archives with the chosen exit date; resolves true once done (the dialog then closes), false
   * when it failed (the caller told the user; the dialog stays for another try). A rejection with
   * the API's details about `exitDate` shows them under the field.
   */
  onConfirm: (vehicule: Vehicule, exitDate: string) => Promise<boolean>;
  onClose: () => void;
};

function exitDateError(vehicule: Vehicule, exitDate: string | null): string | null {
  if (!exitDate) return 'La date de sortie est obligatoire';
  if (exitDate === INVALID_DATE) return INVALID_DATE_MESSAGE;
  return vehiculeDateIssues({ entryDate: vehicule.entryDate, exitDate }).find((issue) => issue.path === 'exitDate')?.message ?? null;
}

type ArchiveFormProps = { vehicule: Vehicule; descriptionId: string } & Omit<VehiculeArchiveDialogProps, 'vehicule'>;

function ArchiveForm({ vehicule, descriptionId, onConfirm, onClose }: ArchiveFormProps) {
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
      if (await onConfirm(vehicule, exitDate)) onClose();
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
        <IsoDateField
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
export function VehiculeArchiveDialog({ vehicule: current, onConfirm, onClose }: VehiculeArchiveDialogProps) {
  const titleId = useId();
  const descriptionId = useId();
  // Keep the last vehicle while the closing transition plays.
  const [vehicule, setVehicule] = useState(current);
  if (current && current !== vehicule) setVehicule(current);
  return (
    <Dialog
      open={current !== null}
      onClose={onClose}
      aria-labelledby={titleId}
      aria-describedby={descriptionId}
      maxWidth="xs"
      fullWidth
      slotProps={{ transition: { onExited: () => setVehicule(null) } }}
    >
      {vehicule && (
        <>
          <DialogTitle id={titleId}>
            {/* Neither the plate nor its question mark split across lines. */}
            Archiver le véhicule <Box component="span" sx={{ whiteSpace: 'nowrap' }}>{`${vehiculeName(vehicule)} ?`}</Box>
          </DialogTitle>
          <ArchiveForm key={vehicule.uuid} vehicule={vehicule} descriptionId={descriptionId} onConfirm={onConfirm} onClose={onClose} />
        </>
      )}
    </Dialog>
  );
}
