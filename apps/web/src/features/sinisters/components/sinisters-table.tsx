import Chip from '@mui/material/Chip';
import type { SINISTER_SORT_COLUMNS, Sinister } from '@flotte/contract';
import type { RegisterColumn } from '../../../components/register/register-cells';
import type { RegisterTableDeclaration } from '../../../components/register/register-table';
import { formatDate, formatEuros, formatPlate } from '../../../lib/format';
import { formatResponsibility, personName, sinisterLabel } from '../utils/format-sinister';
import { SINISTER_TEXTS } from '../utils/sinister-texts';
import { SinisterStatusChip } from './sinister-status-chip';

export type SinisterSortColumn = (typeof SINISTER_SORT_COLUMNS)[number];

export function DeclaredChip({ declared }: { declared: boolean }) {
  return (
    <Chip
      label={declared ? 'Oui' : 'Non'}
      size="small"
      color={declared ? 'success' : 'default'}
      variant={declared ? 'filled' : 'outlined'}
      sx={{ fontWeight: 600, minWidth: 48 }}
    />
  );
}

/**
 * Where a long header may break, with a hyphen shown only if it does: nine columns must fit the
 * ~950 px a 1280 px screen leaves beside the menu, so the cost stays in view (the status, tenth,
 * fits from 1366 px; below, the table scrolls sideways).
 */
const SOFT_HYPHEN = '\u00ad';

const COLUMNS: readonly RegisterColumn<Sinister, SinisterSortColumn>[] = [
  // The mobile card's title (claimCardTitle) gives the plate, its first line the date.
  { id: 'sinisterDate', label: 'Date', sortKey: 'sinisterDate', render: (s) => formatDate(s.sinisterDate), noWrap: true },
  { id: 'sinisterIntermediateRef', label: 'N° de sinistre', sortKey: 'sinisterIntermediateRef', render: (s) => s.sinisterIntermediateRef },
  {
    id: 'immatriculation',
    label: `Immatri${SOFT_HYPHEN}culation`,
    sortKey: 'immatriculation',
    render: (s) => formatPlate(s.vehicule?.immatriculation ?? s.immatriculation),
    noWrap: true,
    hideOnMobile: true,
  },
  { id: 'driver', label: 'Conducteur', render: (s) => personName(s.driver) },
  { id: 'guarantee', label: 'Garantie', render: (s) => s.guarantee?.label },
  { id: 'city', label: 'Ville', sortKey: 'city', render: (s) => s.city },
  { id: 'responsibilityRate', label: `Responsa${SOFT_HYPHEN}bilité`, render: (s) => formatResponsibility(s.responsibilityRate), align: 'right', noWrap: true },
  { id: 'isDeclared', label: 'Déclaré', render: (s) => <DeclaredChip declared={s.isDeclared} />, align: 'center' },
  { id: 'totalCost', label: 'Coût', sortKey: 'totalCost', render: (s) => formatEuros(s.totalCost), align: 'right', noWrap: true },
  { id: 'status', label: 'Statut', render: (s) => <SinisterStatusChip status={s.status} />, align: 'center' },
];

/** Tighter cells than the other registers, and headers that may wrap ('N° de / sinistre'), for the nine columns. */
const COMPACT = {
  '& .MuiTableCell-root': { px: 1 },
  '& .MuiTableCell-root:first-of-type': { pl: 1.5 },
  '& .MuiTableCell-root:last-of-type': { pr: 0.5 },
  '& .MuiTableHead-root .MuiTableCell-root': { whiteSpace: 'normal', lineHeight: 1.3, fontSize: '0.8125rem' },
} as const;

/**
 * A claim's card on a phone is titled by its plate alone (the date is the card's first line): the
 * whole name, 'AB-123-CD · sinistre du 14/03/2026', wrapped on two lines and made the first card
 * the page's largest paint, later than the title of the page's frame (issue 10). The link's name
 * stays the whole one.
 */
function claimCardTitle(sinister: Sinister): string {
  return formatPlate(sinister.vehicule?.immatriculation ?? sinister.immatriculation) || sinisterLabel(sinister);
}

/** The claims register: date, number, plate, driver, guarantee, city, responsibility, declared, cost, status. */
export const SINISTERS_TABLE: RegisterTableDeclaration<Sinister, SinisterSortColumn> = {
  label: SINISTER_TEXTS.list,
  columns: COLUMNS,
  getRowId: (sinister) => sinister.uuid,
  getRowLabel: sinisterLabel,
  getCardTitle: claimCardTitle,
  sx: COMPACT,
};
