import CheckBox from '@mui/icons-material/CheckBox';
import CheckBoxOutlineBlank from '@mui/icons-material/CheckBoxOutlineBlank';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import { VEHICULE_TYPES } from '@flotte/contract';
import { CATEGORY_CODES, categoriesShown, parseTypes, type CategoryFilterProps } from './category-filter';

export type CategorySelectProps = CategoryFilterProps & {
  /** Opened at once: the person clicked the stand-in while this module was on its way. */
  defaultOpen?: boolean;
};

/**
 * 'Catégories' in MUI (a menu of options with their checkbox pictures), loaded by CategoryFilter
 * on the first interaction: the select, its menu and popover stay out of /vehicules' first load.
 */
export function CategorySelect({ value, onChange, defaultOpen = false }: CategorySelectProps) {
  const selected = parseTypes(value);
  return (
    <TextField
      select
      size="small"
      label="Catégories"
      value={selected}
      autoFocus={defaultOpen}
      onChange={(event) => {
        const raw = event.target.value as unknown as string[] | string;
        const chosen = new Set(typeof raw === 'string' ? raw.split(',') : raw);
        // In the contract's order, so one choice always gives one URL.
        onChange(CATEGORY_CODES.filter((code) => chosen.has(code)).join(','));
      }}
      slotProps={{
        select: {
          multiple: true,
          displayEmpty: true,
          defaultOpen,
          renderValue: (codes) => categoriesShown(codes as unknown as string[]),
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
