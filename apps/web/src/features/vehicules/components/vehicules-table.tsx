import ArchiveOutlined from '@mui/icons-material/ArchiveOutlined';
import DeleteForeverOutlined from '@mui/icons-material/DeleteForeverOutlined';
import EditOutlined from '@mui/icons-material/EditOutlined';
import UnarchiveOutlined from '@mui/icons-material/UnarchiveOutlined';
import VisibilityOutlined from '@mui/icons-material/VisibilityOutlined';
import WarningAmberRounded from '@mui/icons-material/WarningAmberRounded';
import Box from '@mui/material/Box';
import Tooltip from '@mui/material/Tooltip';
import { vehiculeTypeLabel, type Vehicule } from '@flotte/contract';
import {
  RegisterTable,
  type RegisterColumn,
  type RegisterTableProps,
} from '../../../components/register/register-table';
import { formatDate, formatPlate } from '../../../lib/format';
import type { VehiculeSortColumn } from '../api/get-vehicules';

/** The vehicle's name for people: its plate as French users read it (AB-123-CD). */
export function vehiculeName(vehicule: Pick<Vehicule, 'immatriculation'>): string {
  return formatPlate(vehicule.immatriculation) || 'Véhicule sans immatriculation';
}

/** 'VUL (utilitaire léger ≤ 3,5 t)' → 'VUL': the category as said in a sentence. */
export function vehiculeTypeShortLabel(code: string | null | undefined): string {
  return vehiculeTypeLabel(code).replace(/ \(.*\)$/, '');
}

/** The category in a narrow column: 'VUL' with its meaning as an abbreviation, the other labels whole. */
function CategoryText({ code }: { code: string | null }) {
  const label = vehiculeTypeLabel(code);
  const short = vehiculeTypeShortLabel(code);
  if (!label) return null;
  if (short === label) return <>{label}</>;
  return (
    <Box component="abbr" title={label.slice(short.length + 2, -1)} sx={{ textDecoration: 'none', cursor: 'help' }}>
      {short}
    </Box>
  );
}

export const PLATE_FONT = 'ui-monospace, "SFMono-Regular", "Cascadia Mono", "Roboto Mono", Menlo, Consolas, monospace';

/** The plate in a plate-like font, with a warning sign and its reason when it is not a usual French plate. */
export function PlateText({ vehicule }: { vehicule: Pick<Vehicule, 'immatriculation' | 'immatriculationWarning'> }) {
  const plate = formatPlate(vehicule.immatriculation);
  return (
    <Box component="span" sx={{ display: 'inline-flex', alignItems: 'center', gap: 0.75, whiteSpace: 'nowrap' }}>
      <Box component="span" sx={{ fontFamily: PLATE_FONT, letterSpacing: '0.02em' }}>
        {plate}
      </Box>
      {vehicule.immatriculationWarning && (
        // Not focusable: in the table the plate sits inside the 'Voir' link, and a control inside a
        // control is not allowed. Keyboard and screen-reader users read the warning in 'Voir'.
        <Tooltip title={vehicule.immatriculationWarning}>
          <Box
            component="span"
            role="img"
            aria-label={`Attention : ${vehicule.immatriculationWarning}`}
            sx={{ display: 'inline-flex', color: 'warning.main' }}
          >
            <WarningAmberRounded fontSize="small" aria-hidden />
          </Box>
        </Tooltip>
      )}
    </Box>
  );
}

const COLUMNS: readonly RegisterColumn<Vehicule, VehiculeSortColumn>[] = [
  {
    id: 'immatriculation',
    label: 'Immatriculation',
    sortKey: 'immatriculation',
    render: (v) => (v.immatriculation ? <PlateText vehicule={v} /> : ''),
    noWrap: true,
    // The card title already shows the plate.
    hideOnMobile: true,
  },
  { id: 'brand', label: 'Marque', sortKey: 'brand', render: (v) => v.brand },
  { id: 'model', label: 'Modèle', sortKey: 'model', render: (v) => v.model },
  { id: 'type', label: 'Catégorie', sortKey: 'type', render: (v) => (v.type ? <CategoryText code={v.type} /> : '') },
  { id: 'circulationDate', label: 'Mise en circulation', sortKey: 'circulationDate', render: (v) => formatDate(v.circulationDate), noWrap: true },
  { id: 'entryDate', label: 'Entrée', sortKey: 'entryDate', render: (v) => formatDate(v.entryDate), noWrap: true },
  { id: 'exitDate', label: 'Sortie', sortKey: 'exitDate', render: (v) => formatDate(v.exitDate), noWrap: true },
];

export type VehiculeActions = {
  onView: (vehicule: Vehicule) => void;
  onEdit: (vehicule: Vehicule) => void;
  onArchive: (vehicule: Vehicule) => void;
  onRestore: (vehicule: Vehicule) => void;
  /** Only for administrators: the action is left out without it. */
  onDelete?: (vehicule: Vehicule) => void;
};

export type VehiculesTableProps = Omit<
  RegisterTableProps<Vehicule, VehiculeSortColumn>,
  'label' | 'columns' | 'getRowId' | 'getRowLabel' | 'onOpenRow' | 'rowActions'
> &
  VehiculeActions;

/** The vehicles register: plate, brand, model, category, the three dates and the actions of each vehicle. */
export function VehiculesTable({ onView, onEdit, onArchive, onRestore, onDelete, ...table }: VehiculesTableProps) {
  return (
    // Seven columns and the actions: with the default cell padding the table would scroll
    // sideways at 1280 px, hiding the actions.
    <Box sx={{ minWidth: 0, '& .MuiTableCell-root': { px: 1.25 }, '& .MuiTableCell-root:first-of-type': { pl: 2 } }}>
      <RegisterTable
        {...table}
        label="Liste des véhicules"
        columns={COLUMNS}
        getRowId={(vehicule) => vehicule.uuid}
        getRowLabel={vehiculeName}
        onOpenRow={onView}
        rowActions={(vehicule) => [
          { label: 'Voir', icon: <VisibilityOutlined fontSize="small" />, onClick: () => onView(vehicule) },
          { label: 'Modifier', icon: <EditOutlined fontSize="small" />, onClick: () => onEdit(vehicule) },
          vehicule.isArchived
            ? { label: 'Restaurer', icon: <UnarchiveOutlined fontSize="small" />, onClick: () => onRestore(vehicule) }
            : { label: 'Archiver', icon: <ArchiveOutlined fontSize="small" />, onClick: () => onArchive(vehicule) },
          onDelete && {
            label: 'Supprimer définitivement',
            icon: <DeleteForeverOutlined fontSize="small" />,
            onClick: () => onDelete(vehicule),
            danger: true,
          },
        ]}
      />
    </Box>
  );
}
