import Box from '@mui/material/Box';
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
  /** More to know before confirming, loaded as the dialog opens (e.g. the claims referring to the row); part of the description read out. */
  details?: ReactNode;
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
  /**
   * Once the dialog has faded out. Over another dialog, a snackbar shown before then is hidden
   * from assistive technologies when this one goes (MUI re-hides the other dialog's siblings):
   * tell the outcome from here.
   */
  onExited?: () => void;
};

/** Asks before an action that cannot be undone. Focus starts on 'Annuler', the safe choice. */
export function ConfirmDialog({
  open,
  title,
  description,
  details,
  confirmLabel,
  cancelLabel = 'Annuler',
  destructive = true,
  onConfirm,
  onClose,
  onExited,
}: ConfirmDialogProps) {
  const titleId = useId();
  const descriptionId = useId();
  const detailsId = useId();
  const describedBy = [description && descriptionId, details && detailsId].filter(Boolean).join(' ');
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
      aria-describedby={describedBy || undefined}
      role="alertdialog"
      maxWidth="xs"
      fullWidth
      slotProps={onExited ? { transition: { onExited } } : undefined}
    >
      <DialogTitle id={titleId} sx={{ overflowWrap: 'anywhere' }}>
        {title}
      </DialogTitle>
      {(description || details) && (
        <DialogContent sx={{ display: 'grid', gap: 1.5 }}>
          {description && <DialogContentText id={descriptionId}>{description}</DialogContentText>}
          {details && (
            <Box id={detailsId} aria-live="polite" sx={{ color: 'text.secondary' }}>
              {details}
            </Box>
          )}
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
