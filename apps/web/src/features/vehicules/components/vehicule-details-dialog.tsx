import type { ReactNode } from 'react';
import WarningAmberRounded from '@mui/icons-material/WarningAmberRounded';
import Box from '@mui/material/Box';
import { vehiculeTypeLabel, type Vehicule } from '@flotte/contract';
import { RecordDocuments } from '../../../components/documents/record-documents';
import { Detail, DetailList, RecordDialog, StatusDetails, type RecordDetailsProps } from '../../../components/register/record-dialog';
import { formatDate } from '../../../lib/format';
import { vehiculeName } from '../utils/vehicule-texts';
import { PLATE_FONT } from './vehicules-table';

/** 'Voir': a vehicle's details, its time in the fleet and its documents. */
export type VehiculeDetailsDialogProps = RecordDetailsProps<Vehicule> & {
  /** Its claims, given by the route (a feature does not import another): the sinisters' ClaimsOf. */
  claims?: (uuid: string) => ReactNode;
};

export function VehiculeDetailsDialog({ claims, ...props }: VehiculeDetailsDialogProps) {
  return (
    <RecordDialog
      {...props}
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
            <StatusDetails record={v} />
          </DetailList>
          {claims?.(v.uuid)}
          <RecordDocuments entity="vehicule" uuid={v.uuid} documents={v.documents} readOnly={v.isArchived} />
        </>
      )}
    </RecordDialog>
  );
}
