import CloseIcon from '@mui/icons-material/Close';
import Dialog from '@mui/material/Dialog';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import IconButton from '@mui/material/IconButton';
import { useTheme } from '@mui/material/styles';
import useMediaQuery from '@mui/material/useMediaQuery';
import type { Driver } from '@flotte/contract';
import { useId } from 'react';
import { DriverForm } from './driver-form';

export type DriverFormDialogProps = {
  open: boolean;
  /** The driver to edit; 'Ajouter un conducteur' without it. */
  driver?: Driver;
  onClose: () => void;
};

/** 'Ajouter un conducteur' / 'Modifier le conducteur', full screen on a phone. */
export function DriverFormDialog({ open, driver, onClose }: DriverFormDialogProps) {
  const theme = useTheme();
  const fullScreen = useMediaQuery(theme.breakpoints.down('sm'), { noSsr: true });
  const titleId = useId();
  const title = driver ? 'Modifier le conducteur' : 'Ajouter un conducteur';
  return (
    <Dialog open={open} onClose={onClose} aria-labelledby={titleId} fullScreen={fullScreen} maxWidth="sm" fullWidth>
      <DialogTitle id={titleId} sx={{ pr: 7 }}>
        {title}
      </DialogTitle>
      <IconButton aria-label="Fermer" onClick={onClose} sx={{ position: 'absolute', right: 12, top: 12 }}>
        <CloseIcon />
      </IconButton>
      <DialogContent>
        {/* Keyed: another driver, or a new one, starts from a fresh form. */}
        <DriverForm key={driver?.uuid ?? 'new'} driver={driver} onSaved={onClose} onCancel={onClose} />
      </DialogContent>
    </Dialog>
  );
}
