import MenuItem from '@mui/material/MenuItem';

export type Choice = { value: string; label: string };

/**
 * The options of a select (MUI TextField `select`): `empty` first when the field may stay empty,
 * e.g. 'Toutes les garanties' or 'Inconnu' (with `displayEmpty`, it shows instead of a blank box).
 */
export function menuItems(choices: readonly Choice[], empty?: string) {
  const items = choices.map((choice) => (
    <MenuItem key={choice.value} value={choice.value}>
      {choice.label}
    </MenuItem>
  ));
  return empty === undefined
    ? items
    : [
        <MenuItem key="" value="">
          {empty}
        </MenuItem>,
        ...items,
      ];
}
