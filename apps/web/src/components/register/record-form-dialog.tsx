import CloseIcon from '@mui/icons-material/Close';
import Dialog from '@mui/material/Dialog';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import IconButton from '@mui/material/IconButton';
import { useTheme } from '@mui/material/styles';
import useMediaQuery from '@mui/material/useMediaQuery';
import { useId, type ReactNode } from 'react';
import type { RegisterRecord } from '../../lib/register-api';

export type RecordFormDialogProps<TRecord extends RegisterRecord> = {
  open: boolean;
  /** The record to edit; a new one without it. Kept by the caller after closing, so the title holds while the dialog fades out. */
  record?: TRecord;
  onClose: () => void;
  /** 'Ajouter un conducteur' for a new record, 'Modifier le conducteur' for an edit. */
  titles: { add: string; edit: string };
  /** 'md' for a form with two columns of many fields. */
  maxWidth?: 'sm' | 'md';
  /** The feature's form; it closes the dialog once saved or cancelled. */
  children: (record: TRecord | undefined, close: () => void) => ReactNode;
};

/** 'Ajouter …' / 'Modifier …' around a register's form, full screen on a phone. */
export function RecordFormDialog<TRecord extends RegisterRecord>({
  open,
  record,
  onClose,
  titles,
  maxWidth = 'sm',
  children,
}: RecordFormDialogProps<TRecord>) {
  const theme = useTheme();
  const fullScreen = useMediaQuery(theme.breakpoints.down('sm'), { noSsr: true });
  const titleId = useId();
  return (
    <Dialog open={open} onClose={onClose} aria-labelledby={titleId} fullScreen={fullScreen} maxWidth={maxWidth} fullWidth>
      <DialogTitle id={titleId} sx={{ pr: 7 }}>
        {record ? titles.edit : titles.add}
      </DialogTitle>
      <IconButton aria-label="Fermer" onClick={onClose} sx={{ position: 'absolute', right: 12, top: 12 }}>
        <CloseIcon />
      </IconButton>
      {/* Keyed: another record, or a new one, starts from a fresh form (a new vehicle, from a new draft). */}
      <DialogContent key={record?.uuid ?? 'new'}>{children(record, onClose)}</DialogContent>
    </Dialog>
  );
}
