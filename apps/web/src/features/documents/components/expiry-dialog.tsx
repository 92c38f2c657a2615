import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import type { DocumentItem } from '@flotte/contract';
import { useId, useState } from 'react';
import { INVALID_DATE, INVALID_DATE_MESSAGE } from '../../../components/date-field-values';
import { documentName } from '../../../components/documents/documents-api';
import { LazyDateField } from '../../../components/lazy-date-field';
import { showActionError } from '../../../components/register/register-actions';
import { ApiError } from '../../../lib/api-error';

export type ExpiryDialogProps = {
  /** The file whose expiry date is set; closed when null. */
  document: DocumentItem | null;
  /** Saves the date (null: no expiry). */
  onSave: (document: DocumentItem, expiresOn: string | null) => Promise<unknown>;
  onClose: () => void;
};

/** The date a file stops being valid (a green card, a licence): shown ahead in « À renouveler ». */
export function ExpiryDialog({ document, onSave, onClose }: ExpiryDialogProps) {
  return document ? <ExpiryDialogContent key={document.uuid} document={document} onSave={onSave} onClose={onClose} /> : null;
}

function ExpiryDialogContent({ document, onSave, onClose }: { document: DocumentItem } & Omit<ExpiryDialogProps, 'document'>) {
  const titleId = useId();
  const descriptionId = useId();
  const [value, setValue] = useState<string | null>(document.expiresOn);
  const [error, setError] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);

  const save = async (expiresOn: string | null) => {
    if (expiresOn === INVALID_DATE) {
      setError(INVALID_DATE_MESSAGE);
      return;
    }
    setBusy(true);
    try {
      await onSave(document, expiresOn);
      onClose();
    } catch (failure) {
      if (failure instanceof ApiError && failure.status === 400) setError(failure.details[0]?.message ?? failure.message);
      else showActionError(failure);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Dialog open onClose={busy ? undefined : onClose} aria-labelledby={titleId} aria-describedby={descriptionId} maxWidth="xs" fullWidth>
      <form
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          void save(value);
        }}
      >
        <DialogTitle id={titleId} sx={{ overflowWrap: 'anywhere' }}>
          Date d’expiration de « {documentName(document)} »
        </DialogTitle>
        <DialogContent sx={{ display: 'grid', gap: 2 }}>
          <DialogContentText id={descriptionId}>Le document apparaîtra dans « À renouveler » 30 jours avant cette date.</DialogContentText>
          <LazyDateField
            label="Expire le"
            value={value}
            onChange={(next) => {
              setValue(next);
              setError(undefined);
            }}
            error={error}
            clearable
            name="expiresOn"
          />
        </DialogContent>
        <DialogActions sx={{ px: 3, pb: 2, flexWrap: 'wrap', gap: 1 }}>
          {document.expiresOn && (
            <Button color="error" onClick={() => void save(null)} disabled={busy} sx={{ mr: 'auto' }}>
              Retirer la date
            </Button>
          )}
          <Button onClick={onClose} disabled={busy}>
            Annuler
          </Button>
          <Button type="submit" variant="contained" loading={busy}>
            Enregistrer
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}
