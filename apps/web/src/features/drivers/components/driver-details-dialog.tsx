import Link from '@mui/material/Link';
import type { Driver } from '@flotte/contract';
import { Detail, DetailList, DocumentsSection, RecordDialog, StatusDetails, type RecordDetailsProps } from '../../../components/register/record-dialog';
import { formatPhone } from '../../../lib/format';
import { ClaimsOf } from '../../sinisters/components/claims-of';
import { driverName } from '../utils/driver-texts';

/** 'Voir': a driver's details and documents. */
export function DriverDetailsDialog(props: RecordDetailsProps<Driver>) {
  return (
    <RecordDialog {...props} title={driverName}>
      {(d) => (
        <>
          <DetailList>
            <Detail label="Nom">{d.lastName}</Detail>
            <Detail label="Prénom">{d.firstName}</Detail>
            <Detail label="E-mail">{d.email && <Link href={`mailto:${d.email}`}>{d.email}</Link>}</Detail>
            <Detail label="Téléphone">{d.phone && <Link href={`tel:${d.phone}`}>{formatPhone(d.phone)}</Link>}</Detail>
            <StatusDetails record={d} />
          </DetailList>
          <ClaimsOf driver={d.uuid} />
          <DocumentsSection documents={d.documents} />
        </>
      )}
    </RecordDialog>
  );
}
