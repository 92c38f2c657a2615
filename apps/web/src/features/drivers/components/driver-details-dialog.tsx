import CloseIcon from '@mui/icons-material/Close';
import DescriptionOutlined from '@mui/icons-material/DescriptionOutlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import IconButton from '@mui/material/IconButton';
import Link from '@mui/material/Link';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import Typography from '@mui/material/Typography';
import type { Driver } from '@flotte/contract';
import { Fragment, useId, useState, type ReactNode } from 'react';
import { formatDate, formatPhone } from '../../../lib/format';

export type DriverDetailsDialogProps = {
  /** The driver shown; closed when null. */
  driver: Driver | null;
  onClose: () => void;
  /** Adds a 'Modifier' button. */
  onEdit?: (driver: Driver) => void;
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

/** 'Voir': a driver's details and documents. */
export function DriverDetailsDialog({ driver: current, onClose, onEdit }: DriverDetailsDialogProps) {
  const titleId = useId();
  const documentsId = useId();
  // Keep the last driver while the closing transition plays.
  const [driver, setDriver] = useState(current);
  if (current && current !== driver) setDriver(current);
  return (
    <Dialog
      open={current !== null}
      onClose={onClose}
      aria-labelledby={titleId}
      maxWidth="sm"
      fullWidth
      slotProps={{ transition: { onExited: () => setDriver(null) } }}
    >
      {driver && (
        <>
          <DialogTitle id={titleId} sx={{ pr: 7, display: 'flex', alignItems: 'center', gap: 1, flexWrap: 'wrap' }}>
            {driver.firstName} {driver.lastName}
            {driver.isArchived && <Chip label="Archivé" size="small" sx={{ fontWeight: 600 }} />}
          </DialogTitle>
          <IconButton aria-label="Fermer" onClick={onClose} sx={{ position: 'absolute', right: 12, top: 12 }}>
            <CloseIcon />
          </IconButton>
          <DialogContent sx={{ display: 'grid', gap: 3 }}>
            <Box
              component="dl"
              sx={{ m: 0, display: 'grid', gridTemplateColumns: { xs: '1fr', sm: '160px 1fr' }, columnGap: 2, rowGap: { xs: 0.25, sm: 1.25 } }}
            >
              <Detail label="Nom">{driver.lastName}</Detail>
              <Detail label="Prénom">{driver.firstName}</Detail>
              <Detail label="E-mail">{driver.email && <Link href={`mailto:${driver.email}`}>{driver.email}</Link>}</Detail>
              <Detail label="Téléphone">
                {driver.phone && <Link href={`tel:${driver.phone}`}>{formatPhone(driver.phone)}</Link>}
              </Detail>
              <Detail label="Statut">{driver.isArchived ? 'Archivé' : 'Actif'}</Detail>
              {driver.isArchived && <Detail label="Date d’archivage">{formatDate(driver.archivedAt)}</Detail>}
              <Detail label="Date d’ajout">{formatDate(driver.createdAt)}</Detail>
            </Box>
            <Box component="section" aria-labelledby={documentsId}>
              <Typography id={documentsId} component="h3" variant="subtitle1" sx={{ fontWeight: 700, mb: 1 }}>
                Documents
              </Typography>
              {driver.documents.length === 0 ? (
                <Typography color="text.secondary">Aucun document</Typography>
              ) : (
                <List dense disablePadding>
                  {driver.documents.map((document) => (
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
              <Button variant="contained" onClick={() => onEdit(driver)}>
                Modifier
              </Button>
            )}
          </DialogActions>
        </>
      )}
    </Dialog>
  );
}
