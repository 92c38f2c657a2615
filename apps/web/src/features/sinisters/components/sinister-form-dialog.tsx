import CloseIcon from '@mui/icons-material/Close';
import Dialog from '@mui/material/Dialog';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import IconButton from '@mui/material/IconButton';
import { useTheme } from '@mui/material/styles';
import useMediaQuery from '@mui/material/useMediaQuery';
import type { Sinister } from '@flotte/contract';
import { useId } from 'react';
import { SinisterForm } from './sinister-form';

export type SinisterFormDialogProps = {
  open: boolean;
  /** The claim to edit; 'Déclarer un sinistre' without it. */
  sinister?: Sinister;
  onClose: () => void;
};

/** 'Déclarer un sinistre' / 'Modifier le sinistre', full screen on a phone. */
export function SinisterFormDialog({ open, sinister, onClose }: SinisterFormDialogProps) {
  const theme = useTheme();
  const fullScreen = useMediaQuery(theme.breakpoints.down('sm'), { noSsr: true });
  const titleId = useId();
  const title = sinister ? 'Modifier le sinistre' : 'Déclarer un sinistre';
  return (
    <Dialog open={open} onClose={onClose} aria-labelledby={titleId} fullScreen={fullScreen} maxWidth="md" fullWidth>
      <DialogTitle id={titleId} sx={{ pr: 7 }}>
        {title}
      </DialogTitle>
      <IconButton aria-label="Fermer" onClick={onClose} sx={{ position: 'absolute', right: 12, top: 12 }}>
        <CloseIcon />
      </IconButton>
      <DialogContent>
        {/* Keyed: another claim, or a new one, starts from a fresh form. */}
        <SinisterForm key={sinister?.uuid ?? 'new'} sinister={sinister} onSaved={onClose} onCancel={onClose} />
      </DialogContent>
    </Dialog>
  );
}
