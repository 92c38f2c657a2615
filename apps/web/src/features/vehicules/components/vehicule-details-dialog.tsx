import WarningAmberRounded from '@mui/icons-material/WarningAmberRounded';
import Box from '@mui/material/Box';
import { vehiculeTypeLabel, type Vehicule } from '@flotte/contract';
import { Detail, DetailList, DocumentsSection, RecordDialog } from '../../../components/register/record-dialog';
import { formatDate } from '../../../lib/format';
import { PLATE_FONT, vehiculeName } from './vehicules-table';

export type VehiculeDetailsDialogProps = {
  /** The vehicle shown; closed when null. */
  vehicule: Vehicule | null;
  onClose: () => void;
  /** Adds a 'Modifier' button. */
  onEdit?: (vehicule: Vehicule) => void;
};

/** 'Voir': a vehicle's details, its time in the fleet and its documents. */
export function VehiculeDetailsDialog({ vehicule, onClose, onEdit }: VehiculeDetailsDialogProps) {
  return (
    <RecordDialog
      record={vehicule}
      onClose={onClose}
      onEdit={onEdit}
      title={(v) => (
        <Box component="span" sx={{ fontFamily: PLATE_FONT }}>
          {vehiculeName(v)}
        </Box>
      )}
    >
      {(v) => (
        <>
          <DetailList labelWidth={200}>
            <Detail label="Immatriculation">
              {v.immatriculation && (
                <Box component="span" sx={{ display: 'grid', gap: 0.5 }}>
                  <Box component="span" sx={{ fontFamily: PLATE_FONT }}>
                    {vehiculeName(v)}
                  </Box>
                  {v.immatriculationWarning && (
                    <Box component="span" sx={{ display: 'inline-flex', gap: 0.5, color: 'warning.main', fontSize: '0.875rem', fontWeight: 600 }}>
                      <WarningAmberRounded sx={{ fontSize: 18 }} aria-hidden />
                      {v.immatriculationWarning}
                    </Box>
                  )}
                </Box>
              )}
            </Detail>
            <Detail label="Marque">{v.brand}</Detail>
            <Detail label="Modèle">{v.model}</Detail>
            <Detail label="Catégorie">{vehiculeTypeLabel(v.type)}</Detail>
            <Detail label="Mise en circulation">{formatDate(v.circulationDate)}</Detail>
            <Detail label="Entrée dans la flotte">{formatDate(v.entryDate)}</Detail>
            <Detail label="Sortie de la flotte">{formatDate(v.exitDate)}</Detail>
            <Detail label="Statut">{v.isArchived ? 'Archivé' : 'Actif'}</Detail>
            {v.isArchived && <Detail label="Date d’archivage">{formatDate(v.archivedAt)}</Detail>}
            <Detail label="Date d’ajout">{formatDate(v.createdAt)}</Detail>
          </DetailList>
          <DocumentsSection documents={v.documents} />
        </>
      )}
    </RecordDialog>
  );
}
