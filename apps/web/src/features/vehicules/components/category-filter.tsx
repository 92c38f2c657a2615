import CheckBox from '@mui/icons-material/CheckBox';
import CheckBoxOutlineBlank from '@mui/icons-material/CheckBoxOutlineBlank';
import Box from '@mui/material/Box';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { VEHICULE_TYPES, type VehiculeTypeCode } from '@flotte/contract';
import { useId, useState } from 'react';
import { INVALID_DATE, IsoDateField } from './iso-date-field';
import { vehiculeTypeShortLabel } from './vehicules-table';

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

export type PeriodFilterProps = {
  /** The URL's `start` and `end` (`YYYY-MM-DD`, `''` when open). */
  start: string;
  end: string;
  /** Both bounds in one navigation; only called with a readable, ordered period. */
  onChange: (period: { start: string; end: string }) => void;
};

type Period = { start: string | null; end: string | null };

const ORDER_ERROR = 'La date de début doit précéder la date de fin';

function isReady(value: string | null): boolean {
  return value !== INVALID_DATE;
}

/**
 * 'Présents dans la flotte du … au …': the vehicles in the fleet at some point of the period
 * (entered by its end, not gone before its start). What is being typed stays here until it makes
 * a readable, ordered period; only then does the URL (and the list) change.
 */
export function PeriodFilter({ start, end, onChange }: PeriodFilterProps) {
  const legendId = useId();
  const [draft, setDraft] = useState<Period>({ start: start || null, end: end || null });
  const [applied, setApplied] = useState({ start, end });
  if (applied.start !== start || applied.end !== end) {
    // The URL changed without us ('Effacer les filtres', the back button): show it.
    setApplied({ start, end });
    setDraft({ start: start || null, end: end || null });
  }
  const disordered = Boolean(draft.start && draft.end && isReady(draft.start) && isReady(draft.end) && draft.start > draft.end);

  const change = (next: Period) => {
    setDraft(next);
    if (!isReady(next.start) || !isReady(next.end)) return;
    if (next.start && next.end && next.start > next.end) return;
    const period = { start: next.start ?? '', end: next.end ?? '' };
    if (period.start === start && period.end === end) return;
    setApplied(period);
    onChange(period);
  };

  return (
    <Box role="group" aria-labelledby={legendId} sx={{ display: 'grid', gap: 0.5, minWidth: 0 }}>
      <Typography id={legendId} variant="body2" color="text.secondary" sx={{ fontWeight: 600 }}>
        Présents dans la flotte
      </Typography>
      <Box sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr 1fr', sm: '210px 210px' }, gap: 1 }}>
        <IsoDateField
          name="start"
          label="Du"
          size="small"
          value={draft.start}
          onChange={(value) => change({ ...draft, start: value })}
        />
        <IsoDateField
          name="end"
          label="Au"
          size="small"
          value={draft.end}
          error={disordered ? ORDER_ERROR : undefined}
          onChange={(value) => change({ ...draft, end: value })}
        />
      </Box>
    </Box>
  );
}
