import FolderZipOutlined from '@mui/icons-material/FolderZipOutlined';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Box from '@mui/material/Box';
import type { Sinister } from '@flotte/contract';
import { RecordDocuments } from '../../../components/documents/record-documents';
import { Detail, DetailList, DetailSection, RecordDialog, StatusDetails, type RecordDetailsProps } from '../../../components/register/record-dialog';
import { formatDate, formatEuros, formatPlate } from '../../../lib/format';
import { downloadClaimPack } from '../api/download-claim-pack';
import { useSinister } from '../api/get-sinister';
import { SinisterStatusChip } from './sinister-status-chip';
import { formatResponsibility, personName, vehiculeLabel, yesNo } from '../utils/format-sinister';

function SinisterTitle({ sinister }: { sinister: Sinister }) {
  const plate = formatPlate(sinister.vehicule?.immatriculation ?? sinister.immatriculation);
  return (
    <span>
      Sinistre du {formatDate(sinister.sinisterDate)}
      {plate && ' '}
      {plate && (
        // A plate never breaks at its dashes.
        <Box component="span" sx={{ whiteSpace: 'nowrap' }}>{`(${plate})`}</Box>
      )}
    </span>
  );
}

/** Every field of a claim, read from GET /api/sinister/{id}; the list row is shown meanwhile. */
function SinisterDetails({ listed }: { listed: Sinister }) {
  const query = useSinister(listed.uuid, listed);
  const sinister = query.data ?? listed;
  return (
    <>
      {query.error && !query.isFetching && (
        <Alert severity="warning">{`${query.error.message} Les informations affichées viennent de la liste.`}</Alert>
      )}
      <DetailSection title="Sinistre">
        <DetailList labelWidth={200}>
          <Detail label="N° de sinistre">{sinister.sinisterIntermediateRef}</Detail>
          <Detail label="Date du sinistre">{formatDate(sinister.sinisterDate)}</Detail>
          <Detail label="Véhicule">{vehiculeLabel(sinister.vehicule)}</Detail>
          <Detail label="Conducteur">{personName(sinister.driver)}</Detail>
          <Detail label="Ville">{sinister.city}</Detail>
          <Detail label="Garantie">{sinister.guarantee?.label}</Detail>
          <Detail label="Taux de responsabilité">{formatResponsibility(sinister.responsibilityRate) || 'Inconnu'}</Detail>
        </DetailList>
      </DetailSection>
      <DetailSection title="Suivi du dossier">
        <DetailList labelWidth={200}>
          <Detail label="Statut">
            <SinisterStatusChip status={sinister.status} />
          </Detail>
          <Detail label="Date d’ouverture">{formatDate(sinister.openedAt)}</Detail>
          {sinister.closedAt && <Detail label={sinister.status === 'refused' ? 'Date du refus' : 'Date de clôture'}>{formatDate(sinister.closedAt)}</Detail>}
          <Detail label="Montant réglé">{formatEuros(sinister.paidAmount)}</Detail>
          <Detail label="Provision">{formatEuros(sinister.reserveAmount)}</Detail>
          <Detail label="Coût total">{formatEuros(sinister.totalCost)}</Detail>
        </DetailList>
        {sinister.description && (
          <Box component="p" sx={{ whiteSpace: 'pre-line', mt: 1, mb: 0 }}>
            {sinister.description}
          </Box>
        )}
      </DetailSection>
      <DetailSection title="Circonstances">
        <DetailList labelWidth={200}>
          <Detail label="Déclaré à l’assureur">{yesNo(sinister.isDeclared)}</Detail>
          <Detail label="Dommages corporels">{yesNo(sinister.hasHumanInjury)}</Detail>
          <Detail label="Véhicule endommagé">{yesNo(sinister.damagedVehicule)}</Detail>
          <Detail label="Tiers impliqué">{yesNo(sinister.isThirdImplicated)}</Detail>
          <Detail label="Convention IDA">{yesNo(sinister.ida)}</Detail>
        </DetailList>
      </DetailSection>
      <DetailSection title="Suivi">
        <DetailList labelWidth={200}>
          <StatusDetails record={sinister} createdLabel="Date de saisie" />
        </DetailList>
      </DetailSection>
      <RecordDocuments entity="sinister" uuid={sinister.uuid} documents={sinister.documents} readOnly={sinister.isArchived} />
    </>
  );
}

/** 'Voir': a claim's details (the row of the list, refreshed from GET /api/sinister/{id}). */
export function SinisterDetailsDialog(props: RecordDetailsProps<Sinister>) {
  return (
    <RecordDialog
      {...props}
      title={(s) => <SinisterTitle sinister={s} />}
      actions={(s) => (
        <Button startIcon={<FolderZipOutlined />} onClick={() => void downloadClaimPack(s)} sx={{ mr: 'auto' }}>
          Télécharger le dossier
        </Button>
      )}
    >
      {(s) => <SinisterDetails listed={s} />}
    </RecordDialog>
  );
}
