import CloseIcon from '@mui/icons-material/Close';
import DescriptionOutlined from '@mui/icons-material/DescriptionOutlined';
import Alert from '@mui/material/Alert';
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
import type { Sinister } from '@flotte/contract';
import { Fragment, useId, useState, type ReactNode } from 'react';
import { formatDate, formatEuros, formatPlate } from '../../../lib/format';
import { useSinister } from '../api/get-sinister';
import { formatResponsibility, personName, vehiculeLabel, yesNo } from '../utils/format-sinister';

export type SinisterDetailsDialogProps = {
  /** The claim shown (the row of the list, refreshed from GET /api/sinister/{id}); closed when null. */
  sinister: Sinister | null;
  onClose: () => void;
  /** Adds a 'Modifier' button. */
  onEdit?: (sinister: Sinister) => void;
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

function Section({ title, children }: { title: string; children: ReactNode }) {
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

const detailsGrid = {
  m: 0,
  display: 'grid',
  gridTemplateColumns: { xs: '1fr', sm: '200px 1fr' },
  columnGap: 2,
  rowGap: { xs: 0.25, sm: 1 },
} as const;

function SinisterDetails({ sinister }: { sinister: Sinister }) {
  return (
    <>
      <Section title="Sinistre">
        <Box component="dl" sx={detailsGrid}>
          <Detail label="N° de sinistre">{sinister.sinisterIntermediateRef}</Detail>
          <Detail label="Date du sinistre">{formatDate(sinister.sinisterDate)}</Detail>
          <Detail label="Véhicule">{vehiculeLabel(sinister.vehicule)}</Detail>
          <Detail label="Conducteur">{personName(sinister.driver)}</Detail>
          <Detail label="Ville">{sinister.city}</Detail>
          <Detail label="Garantie">{sinister.guarantee?.label}</Detail>
          <Detail label="Taux de responsabilité">{formatResponsibility(sinister.responsibilityRate) || 'Inconnu'}</Detail>
          <Detail label="Coût total">{formatEuros(sinister.totalCost)}</Detail>
        </Box>
      </Section>
      <Section title="Circonstances">
        <Box component="dl" sx={detailsGrid}>
          <Detail label="Déclaré à l’assureur">{yesNo(sinister.isDeclared)}</Detail>
          <Detail label="Dommages corporels">{yesNo(sinister.hasHumanInjury)}</Detail>
          <Detail label="Véhicule endommagé">{yesNo(sinister.damagedVehicule)}</Detail>
          <Detail label="Tiers impliqué">{yesNo(sinister.isThirdImplicated)}</Detail>
          <Detail label="Convention IDA">{yesNo(sinister.ida)}</Detail>
        </Box>
      </Section>
      <Section title="Suivi">
        <Box component="dl" sx={detailsGrid}>
          <Detail label="Statut">{sinister.isArchived ? 'Archivé' : 'Actif'}</Detail>
          {sinister.isArchived && <Detail label="Date d’archivage">{formatDate(sinister.archivedAt)}</Detail>}
          <Detail label="Date de saisie">{formatDate(sinister.createdAt)}</Detail>
        </Box>
      </Section>
      <Section title="Documents">
        {sinister.documents.length === 0 ? (
          <Typography color="text.secondary">Aucun document</Typography>
        ) : (
          <List dense disablePadding>
            {sinister.documents.map((document) => (
              <ListItem key={document.uuid} disableGutters>
                <ListItemIcon sx={{ minWidth: 32 }}>
                  <DescriptionOutlined fontSize="small" />
                </ListItemIcon>
                <ListItemText primary={document.name} />
              </ListItem>
            ))}
          </List>
        )}
      </Section>
    </>
  );
}

/** 'Voir': every field of a claim, read from GET /api/sinister/{id}. */
export function SinisterDetailsDialog({ sinister: current, onClose, onEdit }: SinisterDetailsDialogProps) {
  const titleId = useId();
  // Keep the last claim while the closing transition plays.
  const [listed, setListed] = useState(current);
  if (current && current !== listed) setListed(current);
  const query = useSinister(listed?.uuid, listed ?? undefined);
  const sinister = query.data ?? listed;
  const plate = formatPlate(sinister?.vehicule?.immatriculation ?? sinister?.immatriculation);

  return (
    <Dialog
      open={current !== null}
      onClose={onClose}
      aria-labelledby={titleId}
      maxWidth="sm"
      fullWidth
      slotProps={{ transition: { onExited: () => setListed(null) } }}
    >
      {sinister && (
        <>
          <DialogTitle id={titleId} sx={{ pr: 7, display: 'flex', alignItems: 'center', gap: 1, flexWrap: 'wrap' }}>
            <span>
              Sinistre du {formatDate(sinister.sinisterDate)}
              {plate && ' '}
              {plate && (
                // A plate never breaks at its dashes.
                <Box component="span" sx={{ whiteSpace: 'nowrap' }}>{`(${plate})`}</Box>
              )}
            </span>
            {sinister.isArchived && <Chip label="Archivé" size="small" sx={{ fontWeight: 600 }} />}
          </DialogTitle>
          <IconButton aria-label="Fermer" onClick={onClose} sx={{ position: 'absolute', right: 12, top: 12 }}>
            <CloseIcon />
          </IconButton>
          <DialogContent sx={{ display: 'grid', gap: 3 }}>
            {query.error && !query.isFetching && (
              <Alert severity="warning">{`${query.error.message} Les informations affichées viennent de la liste.`}</Alert>
            )}
            <SinisterDetails sinister={sinister} />
          </DialogContent>
          <DialogActions sx={{ px: 3, pb: 2 }}>
            <Button onClick={onClose}>Fermer</Button>
            {onEdit && (
              <Button variant="contained" onClick={() => onEdit(sinister)}>
                Modifier
              </Button>
            )}
          </DialogActions>
        </>
      )}
    </Dialog>
  );
}
