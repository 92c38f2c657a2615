import CloseIcon from '@mui/icons-material/Close';
import DescriptionOutlined from '@mui/icons-material/DescriptionOutlined';
import WarningAmberRounded from '@mui/icons-material/WarningAmberRounded';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import IconButton from '@mui/material/IconButton';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import Typography from '@mui/material/Typography';
import { vehiculeTypeLabel, type Vehicule } from '@flotte/contract';
import { Fragment, useId, useState, type ReactNode } from 'react';
import { formatDate } from '../../../lib/format';
import { PLATE_FONT, vehiculeName } from './vehicules-table';

export type VehiculeDetailsDialogProps = {
  /** The vehicle shown; closed when null. */
  vehicule: Vehicule | null;
  onClose: () => void;
  /** Adds a 'Modifier' button. */
  onEdit?: (vehicule: Vehicule) => void;
};

function Detail({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Fragment>
      <Typography component="dt" variant="body2" color="text.secondary">
        {label}
      </Typography>
      <Typography component="dd" sx={{ m: 0, overflowWrap: 'anywhere' }}>
        {children || 'Non renseigné'}
      </Typography>
    </Fragment>
  );
}

/** 'Voir': a vehicle's details, its time in the fleet and its documents. */
export function VehiculeDetailsDialog({ vehicule: current, onClose, onEdit }: VehiculeDetailsDialogProps) {
  const titleId = useId();
  const documentsId = useId();
  // Keep the last vehicle while the closing transition plays.
  const [vehicule, setVehicule] = useState(current);
  if (current && current !== vehicule) setVehicule(current);
  return (
    <Dialog
      open={current !== null}
      onClose={onClose}
      aria-labelledby={titleId}
      maxWidth="sm"
      fullWidth
      slotProps={{ transition: { onExited: () => setVehicule(null) } }}
    >
      {vehicule && (
        <>
          <DialogTitle id={titleId} sx={{ pr: 7, display: 'flex', alignItems: 'center', gap: 1, flexWrap: 'wrap' }}>
            <Box component="span" sx={{ fontFamily: PLATE_FONT }}>
              {vehiculeName(vehicule)}
            </Box>
            {vehicule.isArchived && <Chip label="Archivé" size="small" sx={{ fontWeight: 600 }} />}
          </DialogTitle>
          <IconButton aria-label="Fermer" onClick={onClose} sx={{ position: 'absolute', right: 12, top: 12 }}>
            <CloseIcon />
          </IconButton>
          <DialogContent sx={{ display: 'grid', gap: 3 }}>
            <Box
              component="dl"
              sx={{ m: 0, display: 'grid', gridTemplateColumns: { xs: '1fr', sm: '200px 1fr' }, columnGap: 2, rowGap: { xs: 0.25, sm: 1.25 } }}
            >
              <Detail label="Immatriculation">
                {vehicule.immatriculation && (
                  <Box component="span" sx={{ display: 'grid', gap: 0.5 }}>
                    <Box component="span" sx={{ fontFamily: PLATE_FONT }}>
                      {vehiculeName(vehicule)}
                    </Box>
                    {vehicule.immatriculationWarning && (
                      <Box component="span" sx={{ display: 'inline-flex', gap: 0.5, color: 'warning.main', fontSize: '0.875rem', fontWeight: 600 }}>
                        <WarningAmberRounded sx={{ fontSize: 18 }} aria-hidden />
                        {vehicule.immatriculationWarning}
                      </Box>
                    )}
                  </Box>
                )}
              </Detail>
              <Detail label="Marque">{vehicule.brand}</Detail>
              <Detail label="Modèle">{vehicule.model}</Detail>
              <Detail label="Catégorie">{vehiculeTypeLabel(vehicule.type)}</Detail>
              <Detail label="Mise en circulation">{formatDate(vehicule.circulationDate)}</Detail>
              <Detail label="Entrée dans la flotte">{formatDate(vehicule.entryDate)}</Detail>
              <Detail label="Sortie de la flotte">{formatDate(vehicule.exitDate)}</Detail>
              <Detail label="Statut">{vehicule.isArchived ? 'Archivé' : 'Actif'}</Detail>
              {vehicule.isArchived && <Detail label="Date d’archivage">{formatDate(vehicule.archivedAt)}</Detail>}
              <Detail label="Date d’ajout">{formatDate(vehicule.createdAt)}</Detail>
            </Box>
            <Box component="section" aria-labelledby={documentsId}>
              <Typography id={documentsId} component="h3" variant="subtitle1" sx={{ fontWeight: 700, mb: 1 }}>
                Documents
              </Typography>
              {vehicule.documents.length === 0 ? (
                <Typography color="text.secondary">Aucun document</Typography>
              ) : (
                <List dense disablePadding>
                  {vehicule.documents.map((document) => (
                    <ListItem key={document.uuid} disableGutters>
                      <ListItemIcon sx={{ minWidth: 32 }}>
                        <DescriptionOutlined fontSize="small" />
                      </ListItemIcon>
                      <ListItemText primary={document.name} />
                    </ListItem>
                  ))}
                </List>
              )}
            </Box>
          </DialogContent>
          <DialogActions sx={{ px: 3, pb: 2 }}>
            <Button onClick={onClose}>Fermer</Button>
            {onEdit && (
              <Button variant="contained" onClick={() => onEdit(vehicule)}>
                Modifier
              </Button>
            )}
          </DialogActions>
        </>
      )}
    </Dialog>
  );
}
