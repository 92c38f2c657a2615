import CloseIcon from '@mui/icons-material/Close';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import IconButton from '@mui/material/IconButton';
import Typography from '@mui/material/Typography';
import { Fragment, useId, useState, type ReactNode } from 'react';
import { formatDate } from '../../lib/format';

/** One label/value pair of a details list; an empty value reads 'Non renseigné'. */
export function Detail({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Fragment>
      <Typography component="dt" variant="body2" color="textSecondary">
        {label}
      </Typography>
      <Typography component="dd" sx={{ m: 0, overflowWrap: 'anywhere' }}>
        {children || 'Non renseigné'}
      </Typography>
    </Fragment>
  );
}

/** The label/value grid (a <dl>): labels beside values, stacked on a phone. */
export function DetailList({ children, labelWidth = 160 }: { children: ReactNode; labelWidth?: number }) {
  return (
    <Box
      component="dl"
      sx={{ m: 0, display: 'grid', gridTemplateColumns: { xs: '1fr', sm: `${labelWidth}px 1fr` }, columnGap: 2, rowGap: { xs: 0.25, sm: 1.25 } }}
    >
      {children}
    </Box>
  );
}

/** A titled part of a details dialog (h3). */
export function DetailSection({ title, children }: { title: string; children: ReactNode }) {
  const id = useId();
  return (
    <Box component="section" aria-labelledby={id}>
      <Typography id={id} component="h3" variant="subtitle1" sx={{ fontWeight: 700, mb: 1 }}>
        {title}
      </Typography>
      {children}
    </Box>
  );
}

/** 'Statut', its archiving date, and when the record was entered ('Date d’ajout', 'Date de saisie'). */
export function StatusDetails({
  record,
  createdLabel = 'Date d’ajout',
}: {
  record: { isArchived: boolean; archivedAt: string | null; createdAt: string };
  createdLabel?: string;
}) {
  return (
    <>
      <Detail label="Statut">{record.isArchived ? 'Archivé' : 'Actif'}</Detail>
      {record.isArchived && <Detail label="Date d’archivage">{formatDate(record.archivedAt)}</Detail>}
      <Detail label={createdLabel}>{formatDate(record.createdAt)}</Detail>
    </>
  );
}

/** What a register's 'Voir' dialog gets (useRegisterActions' `details`). */
export type RecordDetailsProps<T> = {
  /** The record shown; closed when null. */
  record: T | null;
  onClose: () => void;
  /** Adds a 'Modifier' button. */
  onEdit?: (record: T) => void;
};

export type RecordDialogProps<T extends { isArchived: boolean }> = RecordDetailsProps<T> & {
  /** The dialog title (an 'Archivé' chip follows it for archived records). */
  title: (record: T) => ReactNode;
  /** The details: DetailList / DetailSection / RecordDocuments (components/documents). */
  children: (record: T) => ReactNode;
  /** The record's own buttons, before 'Fermer' (the claims' 'Télécharger le dossier'). */
  actions?: (record: T) => ReactNode;
};

/**
 * The Dialog props of a dialog about one record: open while `current` is set, the record kept
 * while the closing transition plays, so the title does not change as the dialog fades out.
 */
export function useRecordDialog<T>(current: T | null, onClose: () => void) {
  const titleId = useId();
  const [record, setRecord] = useState(current);
  if (current && current !== record) setRecord(current);
  const dialog = {
    open: current !== null,
    onClose,
    'aria-labelledby': titleId,
    fullWidth: true,
    slotProps: { transition: { onExited: () => setRecord(null) } },
  };
  return { record, titleId, dialog };
}

/** 'Voir' for a register row: title, close button, the details, 'Fermer' and 'Modifier'. */
export function RecordDialog<T extends { isArchived: boolean }>({ record: current, onClose, onEdit, title, children, actions }: RecordDialogProps<T>) {
  const { record, titleId, dialog } = useRecordDialog(current, onClose);
  return (
    <Dialog {...dialog} maxWidth="sm">
      {record && (
        <>
          <DialogTitle id={titleId} sx={{ pr: 7, display: 'flex', alignItems: 'center', gap: 1, flexWrap: 'wrap' }}>
            {title(record)}
            {record.isArchived && <Chip label="Archivé" size="small" sx={{ fontWeight: 600 }} />}
          </DialogTitle>
          <IconButton aria-label="Fermer" onClick={onClose} sx={{ position: 'absolute', right: 12, top: 12 }}>
            <CloseIcon />
          </IconButton>
          {/* Focusable: a long record (a claim's follow-up, a vehicle's claims) scrolls, and the keyboard must reach it. */}
          <DialogContent tabIndex={0} sx={{ display: 'grid', gap: 3 }}>
            {children(record)}
          </DialogContent>
          <DialogActions sx={{ px: 3, pb: 2, flexWrap: 'wrap', rowGap: 1 }}>
            {actions?.(record)}
            <Button onClick={onClose}>Fermer</Button>
            {onEdit && (
              <Button variant="contained" onClick={() => onEdit(record)}>
                Modifier
              </Button>
            )}
          </DialogActions>
        </>
      )}
    </Dialog>
  );
}
