import ArchiveOutlined from '@mui/icons-material/ArchiveOutlined';
import DeleteForeverOutlined from '@mui/icons-material/DeleteForeverOutlined';
import EditOutlined from '@mui/icons-material/EditOutlined';
import UnarchiveOutlined from '@mui/icons-material/UnarchiveOutlined';
import VisibilityOutlined from '@mui/icons-material/VisibilityOutlined';
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import type { Sinister } from '@flotte/contract';
import {
  RegisterTable,
  type RegisterColumn,
  type RegisterTableProps,
} from '../../../components/register/register-table';
import { formatDate, formatEuros, formatPlate } from '../../../lib/format';
import type { SinisterSortColumn } from '../api/get-sinisters';
import { formatResponsibility, personName, sinisterLabel } from '../utils/format-sinister';

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
 * ~950 px a 1280 px screen leaves beside the menu, so the cost stays in view.
 */
const SOFT_HYPHEN = '\u00ad';

const COLUMNS: readonly RegisterColumn<Sinister, SinisterSortColumn>[] = [
  // The mobile card's title (sinisterLabel) already gives the date and the plate.
  { id: 'sinisterDate', label: 'Date', sortKey: 'sinisterDate', render: (s) => formatDate(s.sinisterDate), noWrap: true, hideOnMobile: true },
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
];

/** Tighter cells than the other registers, and headers that may wrap ('N° de / sinistre'), for the nine columns. */
const COMPACT = {
  minWidth: 0,
  '& .MuiTableCell-root': { px: 1 },
  '& .MuiTableCell-root:first-of-type': { pl: 1.5 },
  '& .MuiTableCell-root:last-of-type': { pr: 0.5 },
  '& .MuiTableHead-root .MuiTableCell-root': { whiteSpace: 'normal', lineHeight: 1.3, fontSize: '0.8125rem' },
} as const;

export type SinisterActions = {
  onView: (sinister: Sinister) => void;
  onEdit: (sinister: Sinister) => void;
  onArchive: (sinister: Sinister) => void;
  onRestore: (sinister: Sinister) => void;
  /** Only for administrators: the action is left out without it. */
  onDelete?: (sinister: Sinister) => void;
};

export type SinistersTableProps = Omit<
  RegisterTableProps<Sinister, SinisterSortColumn>,
  'label' | 'columns' | 'getRowId' | 'getRowLabel' | 'onOpenRow' | 'rowActions'
> &
  SinisterActions;

/** The claims register: date, number, plate, driver, guarantee, city, responsibility, declared, cost. */
export function SinistersTable({ onView, onEdit, onArchive, onRestore, onDelete, ...table }: SinistersTableProps) {
  return (
    <Box sx={COMPACT}>
      <RegisterTable
      {...table}
      label="Liste des sinistres"
      columns={COLUMNS}
      getRowId={(sinister) => sinister.uuid}
      getRowLabel={sinisterLabel}
      onOpenRow={onView}
      rowActions={(sinister) => [
        { label: 'Voir', icon: <VisibilityOutlined fontSize="small" />, onClick: () => onView(sinister) },
        { label: 'Modifier', icon: <EditOutlined fontSize="small" />, onClick: () => onEdit(sinister) },
        sinister.isArchived
          ? { label: 'Restaurer', icon: <UnarchiveOutlined fontSize="small" />, onClick: () => onRestore(sinister) }
          : { label: 'Archiver', icon: <ArchiveOutlined fontSize="small" />, onClick: () => onArchive(sinister) },
        onDelete && {
          label: 'Supprimer définitivement',
          icon: <DeleteForeverOutlined fontSize="small" />,
          onClick: () => onDelete(sinister),
          danger: true,
        },
      ]}
      />
    </Box>
  );
}
