import type { BrokerSortColumn } from '@flotte/contract';
import Box from '@mui/material/Box';
import type { RegisterColumn } from '../../../components/register/register-cells';
import type { RegisterTableDeclaration } from '../../../components/register/register-table';
import { formatCount, formatDate, formatEuros } from '../../../lib/format';
import { formatSignedVehicles } from '../../../lib/insurance-figures';
import type { BrokerRow } from '../api/broker-api';
import { OrganizationAvatar } from '../../../components/organization-avatar';
import { LimitFigure } from './limit-figure';

function HalfDifference({ row, halfDifference }: { row: BrokerRow; halfDifference: number }) {
  return (
    <Box component="span" sx={{ display: 'inline-flex', flexDirection: 'column', alignItems: { xs: 'flex-start', sm: 'flex-end' } }}>
      <span>{row.regularisation === null ? '—' : formatEuros(row.regularisation)}</span>
      <Box component="span" sx={{ fontSize: '0.75rem', color: 'text.secondary', whiteSpace: 'nowrap' }}>
        {formatSignedVehicles(halfDifference)} véh.
      </Box>
    </Box>
  );
}

const COLUMNS: readonly RegisterColumn<BrokerRow, BrokerSortColumn>[] = [
  {
    id: 'title',
    label: 'Organisation',
    sortKey: 'title',
    // Its logo when it has one (no initial: the name is right beside it).
    render: (o) =>
      o.avatar?.url ? (
        <Box component="span" sx={{ display: 'inline-flex', alignItems: 'center', gap: 1 }}>
          <OrganizationAvatar organization={o} size={28} />
          <span>{o.title}</span>
        </Box>
      ) : (
        o.title
      ),
    hideOnMobile: true,
  },
  { id: 'vehicles', label: 'Véhicules', sortKey: 'vehicles', render: (o) => formatCount(o.vehicles), align: 'right', noWrap: true, width: 84 },
  { id: 'claims', label: `Sinistres ${new Date().getFullYear()}`, sortKey: 'claimsThisYear', render: (o) => formatCount(o.claimsThisYear), align: 'right', width: 92 },
  { id: 'lossRatio', label: 'S/P', sortKey: 'lossRatio', render: (o) => <LimitFigure value={o.lossRatio} limit={o.lossRatioLimit} />, width: 108 },
  { id: 'frequency', label: 'Fréquence', sortKey: 'claimFrequency', render: (o) => <LimitFigure value={o.claimFrequency} limit={o.claimFrequencyLimit} />, width: 108 },
  { id: 'regularisation', label: 'Demi-diff.', sortKey: 'regularisation', render: (o) => (o.halfDifference === null ? null : <HalfDifference row={o} halfDifference={o.halfDifference} />), align: 'right', width: 108 },
  { id: 'renewal', label: 'Échéance', sortKey: 'nextRenewal', render: (o) => formatDate(o.nextRenewal), noWrap: true, width: 104 },
  { id: 'activity', label: 'Activité', sortKey: 'lastActivity', render: (o) => formatDate(o.lastActivity), noWrap: true, width: 104 },
];

/** The broker's client organizations side by side; a card per organization on a phone, titled by its name. */
export const BROKER_ORGANIZATIONS_TABLE: RegisterTableDeclaration<BrokerRow, BrokerSortColumn> = {
  label: 'Organisations clientes',
  columns: COLUMNS,
  getRowId: (organization) => organization.uuid,
  getRowLabel: (organization) => organization.title,
  sx: { '& .MuiTableCell-root': { px: 1 } },
};
