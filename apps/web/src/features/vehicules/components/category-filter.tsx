import CheckBox from '@mui/icons-material/CheckBox';
import CheckBoxOutlineBlank from '@mui/icons-material/CheckBoxOutlineBlank';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import { VEHICULE_TYPES, type VehiculeTypeCode } from '@flotte/contract';
import { vehiculeTypeShortLabel } from '../utils/vehicule-texts';

const CODES: readonly string[] = VEHICULE_TYPES.map((type) => type.code);

/** `'VP,VUL'` → `['VP', 'VUL']`, unknown codes (an old link) left out. */
export function parseTypes(value: string): VehiculeTypeCode[] {
  return value.split(',').filter((code): code is VehiculeTypeCode => CODES.includes(code));
}

export type CategoryFilterProps = {
  /** The URL's `types`: `'VP,VUL'`, `''` for every category. */
  value: string;
  onChange: (value: string) => void;
};

/** 'Catégories': several categories at once, written to the URL as `types=VP,VUL`. */
export function CategoryFilter({ value, onChange }: CategoryFilterProps) {
  const selected = parseTypes(value);
  return (
    <TextField
      select
      size="small"
      label="Catégories"
      value={selected}
      onChange={(event) => {
        const raw = event.target.value as unknown as string[] | string;
        const chosen = new Set(typeof raw === 'string' ? raw.split(',') : raw);
        // In the contract's order, so one choice always gives one URL.
        onChange(CODES.filter((code) => chosen.has(code)).join(','));
      }}
      slotProps={{
        select: {
          multiple: true,
          displayEmpty: true,
          renderValue: (codes) => {
            const list = codes as unknown as string[];
            if (list.length === 0) return 'Toutes';
            return list.map((code) => vehiculeTypeShortLabel(code)).join(', ');
          },
          MenuProps: { slotProps: { paper: { sx: { maxHeight: 420 } } } },
        },
        inputLabel: { shrink: true },
      }}
    >
      {VEHICULE_TYPES.map((type) => (
        <MenuItem key={type.code} value={type.code} dense>
          {/* A picture of a box, not a checkbox: a control inside the option would be one control in another. */}
          <ListItemIcon sx={{ color: selected.includes(type.code) ? 'primary.main' : 'text.secondary' }}>
            {selected.includes(type.code) ? <CheckBox fontSize="small" aria-hidden /> : <CheckBoxOutlineBlank fontSize="small" aria-hidden />}
          </ListItemIcon>
          <ListItemText primary={type.label} />
        </MenuItem>
      ))}
    </TextField>
  );
}
