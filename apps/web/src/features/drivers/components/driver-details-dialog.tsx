import type { ReactNode } from 'react';
import Link from '@mui/material/Link';
import type { Driver } from '@flotte/contract';
import { RecordDocuments } from '../../../components/documents/record-documents';
import { Detail, DetailList, RecordDialog, StatusDetails, type RecordDetailsProps } from '../../../components/register/record-dialog';
import { formatPhone } from '../../../lib/format';
import { driverName } from '../utils/driver-texts';

/** 'Voir': a driver's details and documents. */
export type DriverDetailsDialogProps = RecordDetailsProps<Driver> & {
  /** Its claims, given by the route (a feature does not import another): the sinisters' ClaimsOf. */
  claims?: (uuid: string) => ReactNode;
};

export function DriverDetailsDialog({ claims, ...props }: DriverDetailsDialogProps) {
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
          {claims?.(d.uuid)}
          <RecordDocuments entity="driver" uuid={d.uuid} documents={d.documents} readOnly={d.isArchived} />
        </>
      )}
    </RecordDialog>
  );
}
