import CloseIcon from '@mui/icons-material/Close';
import Dialog from '@mui/material/Dialog';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import IconButton from '@mui/material/IconButton';
import { useTheme } from '@mui/material/styles';
import useMediaQuery from '@mui/material/useMediaQuery';
import type { Vehicule } from '@flotte/contract';
import { useId } from 'react';
import { VehiculeForm } from './vehicule-form';

export type VehiculeFormDialogProps = {
  open: boolean;
  /** The vehicle to edit; 'Ajouter un véhicule' without it. */
  vehicule?: Vehicule;
  onClose: () => void;
};

/** 'Ajouter un véhicule' / 'Modifier le véhicule', full screen on a phone. */
export function VehiculeFormDialog({ open, vehicule, onClose }: VehiculeFormDialogProps) {
  const theme = useTheme();
  const fullScreen = useMediaQuery(theme.breakpoints.down('sm'), { noSsr: true });
  const titleId = useId();
  const title = vehicule ? 'Modifier le véhicule' : 'Ajouter un véhicule';
  return (
    <Dialog open={open} onClose={onClose} aria-labelledby={titleId} fullScreen={fullScreen} maxWidth="sm" fullWidth>
      <DialogTitle id={titleId} sx={{ pr: 7 }}>
        {title}
      </DialogTitle>
      <IconButton aria-label="Fermer" onClick={onClose} sx={{ position: 'absolute', right: 12, top: 12 }}>
        <CloseIcon />
      </IconButton>
      <DialogContent>
        {/* Keyed: another vehicle, or a new one, starts from a fresh form (and a new draft). */}
        <VehiculeForm key={vehicule?.uuid ?? 'new'} vehicule={vehicule} onSaved={onClose} onCancel={onClose} />
      </DialogContent>
    </Dialog>
  );
}
