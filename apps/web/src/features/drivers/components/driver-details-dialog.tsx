import Link from '@mui/material/Link';
import type { Driver } from '@flotte/contract';
import { Detail, DetailList, DocumentsSection, RecordDialog } from '../../../components/register/record-dialog';
import { formatDate, formatPhone } from '../../../lib/format';

export type DriverDetailsDialogProps = {
  /** The driver shown; closed when null. */
  driver: Driver | null;
  onClose: () => void;
  /** Adds a 'Modifier' button. */
  onEdit?: (driver: Driver) => void;
};

/** 'Voir': a driver's details and documents. */
export function DriverDetailsDialog({ driver, onClose, onEdit }: DriverDetailsDialogProps) {
  return (
    <RecordDialog record={driver} onClose={onClose} onEdit={onEdit} title={(d) => `${d.firstName} ${d.lastName}`}>
      {(d) => (
        <>
          <DetailList>
            <Detail label="Nom">{d.lastName}</Detail>
            <Detail label="Prénom">{d.firstName}</Detail>
            <Detail label="E-mail">{d.email && <Link href={`mailto:${d.email}`}>{d.email}</Link>}</Detail>
            <Detail label="Téléphone">{d.phone && <Link href={`tel:${d.phone}`}>{formatPhone(d.phone)}</Link>}</Detail>
            <Detail label="Statut">{d.isArchived ? 'Archivé' : 'Actif'}</Detail>
            {d.isArchived && <Detail label="Date d’archivage">{formatDate(d.archivedAt)}</Detail>}
            <Detail label="Date d’ajout">{formatDate(d.createdAt)}</Detail>
          </DetailList>
          <DocumentsSection documents={d.documents} />
        </>
      )}
    </RecordDialog>
  );
}
