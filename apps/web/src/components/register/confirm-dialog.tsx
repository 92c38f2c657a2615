import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import { useId, useState, type ReactNode } from 'react';

export type ConfirmDialogProps = {
  open: boolean;
  /** Names the row, e.g. 'Supprimer définitivement Élodie Écuyer ?'. */
  title: string;
  /** e.g. 'Cette action est irréversible.' */
  description?: ReactNode;
  /** e.g. 'Supprimer définitivement'. */
  confirmLabel: string;
  cancelLabel?: string;
  /** Red confirm button, for destructive actions (default true). */
  destructive?: boolean;
  /**
   * May return a promise: the button spins meanwhile and the dialog stays open; the caller
   * closes it (onClose) on success and tells about a failure (snackbar).
   */
  onConfirm: () => void | Promise<unknown>;
  onClose: () => void;
};

/** Asks before an action that cannot be undone. Focus starts on 'Annuler', the safe choice. */
export function ConfirmDialog({
  open,
  title,
  description,
  confirmLabel,
  cancelLabel = 'Annuler',
  destructive = true,
  onConfirm,
  onClose,
}: ConfirmDialogProps) {
  const titleId = useId();
  const descriptionId = useId();
  const [busy, setBusy] = useState(false);

  const confirm = async () => {
    setBusy(true);
    try {
      await onConfirm();
    } catch {
      // The caller reports failures (snackbar); the dialog just stays open for another try.
    } finally {
      setBusy(false);
    }
  };

  return (
    <Dialog
      open={open}
      onClose={busy ? undefined : onClose}
      aria-labelledby={titleId}
      aria-describedby={description ? descriptionId : undefined}
      role="alertdialog"
      maxWidth="xs"
      fullWidth
    >
      <DialogTitle id={titleId} sx={{ overflowWrap: 'anywhere' }}>
        {title}
      </DialogTitle>
      {description && (
        <DialogContent>
          <DialogContentText id={descriptionId}>{description}</DialogContentText>
        </DialogContent>
      )}
      <DialogActions sx={{ px: 3, pb: 2, flexWrap: 'wrap', gap: 1 }}>
        <Button onClick={onClose} disabled={busy} autoFocus>
          {cancelLabel}
        </Button>
        <Button
          variant="contained"
          color={destructive ? 'error' : 'primary'}
          loading={busy}
          onClick={() => void confirm()}
        >
          {confirmLabel}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
