import WarningAmberRounded from '@mui/icons-material/WarningAmberRounded';
import Box from '@mui/material/Box';
import { vehiculeTypeLabel, type VEHICULE_SORT_COLUMNS, type Vehicule } from '@flotte/contract';
import type { RegisterColumn } from '../../../components/register/register-cells';
import type { RegisterTableDeclaration } from '../../../components/register/register-table';
import { formatDate, formatPlate } from '../../../lib/format';
import { VEHICULE_TEXTS, vehiculeName, vehiculeTypeShortLabel } from '../utils/vehicule-texts';

export type VehiculeSortColumn = (typeof VEHICULE_SORT_COLUMNS)[number];

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
        // The browser's own tooltip (title): MUI's Tooltip would bring Popper to every first load
        // of the register (≈ 10 kB, issue 10) for this hover hint.
        <Box
          component="span"
          role="img"
          aria-label={`Attention : ${vehicule.immatriculationWarning}`}
          title={vehicule.immatriculationWarning}
          sx={{ display: 'inline-flex', color: 'warning.main', cursor: 'help' }}
        >
          <WarningAmberRounded fontSize="small" aria-hidden />
        </Box>
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

/** Seven columns and the actions: with the default cell padding the table would scroll sideways at 1280 px, hiding the actions. */
const TIGHT = { '& .MuiTableCell-root': { px: 1.25 }, '& .MuiTableCell-root:first-of-type': { pl: 2 } } as const;

/** The vehicles register: plate, brand, model, category, the three dates; a card per vehicle on a phone, titled by the plate. */
export const VEHICULES_TABLE: RegisterTableDeclaration<Vehicule, VehiculeSortColumn> = {
  getRowLabel: vehiculeName,
  getRowId: (vehicule) => vehicule.uuid,
  columns: COLUMNS,
  label: VEHICULE_TEXTS.list,
  sx: TIGHT,
};
