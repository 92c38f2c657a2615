import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { useEffect, useEffectEvent, useId, useState } from 'react';
import { INVALID_DATE } from '../date-field-values';
import { LazyDateField } from '../lazy-date-field';

/** Typing a date fires a change per section: the list waits for the pause. */
export const PERIOD_TYPING_DELAY_MS = 600;

/** The contract's words for a period whose end precedes its start. */
const ORDER_ERROR = 'La date de début doit précéder la date de fin';

export type Period = { start: string; end: string };

export type PeriodFilterProps = {
  /** The caption naming the period, e.g. 'Présents dans la flotte' or 'Période'. */
  legend: string;
  /** The applied bounds (`YYYY-MM-DD`, `''` when open), from the URL. */
  start: string;
  end: string;
  /** Both bounds in one navigation; only ever called with a readable, ordered period. */
  onChange: (period: Period) => void;
  /** The bounds may be emptied (an open period). Without it, an emptied field keeps the last date. */
  clearable?: boolean;
};

type Draft = { start: string | null; end: string | null; picked: boolean };

function isReady(value: string | null, clearable: boolean): boolean {
  return value !== INVALID_DATE && (clearable || value !== null);
}

/**
 * 'Du … au …' of a register's filters. What is being typed stays here until it makes a readable,
 * ordered period; a date chosen in the calendar applies at once, a typed one once the user
 * pauses, so the list never searches a half-typed year. The pickers arrive just after the list
 * (LazyDateField), in fields of the same size.
 */
export function PeriodFilter({ legend, start, end, onChange, clearable = false }: PeriodFilterProps) {
  const legendId = useId();
  const [draft, setDraft] = useState<Draft>({ start: start || null, end: end || null, picked: false });
  const [seen, setSeen] = useState<Period>({ start, end });
  if (seen.start !== start || seen.end !== end) {
    // The URL moved ('Effacer les filtres', the back button, or our own change arriving): a bound
    // that moved shows its new date; the other keeps what is being typed in it.
    setSeen({ start, end });
    setDraft((current) => ({
      start: seen.start !== start ? start || null : current.start,
      end: seen.end !== end ? end || null : current.end,
      picked: false,
    }));
  }
  const ready = isReady(draft.start, clearable) && isReady(draft.end, clearable);
  const disordered = ready && Boolean(draft.start && draft.end && draft.start > draft.end);
  // The period the fields make, when it may be applied.
  const nextStart = ready && !disordered ? (draft.start ?? '') : null;
  const nextEnd = ready && !disordered ? (draft.end ?? '') : null;

  const apply = useEffectEvent((period: Period) => onChange(period));

  useEffect(() => {
    if (nextStart === null || nextEnd === null || (nextStart === start && nextEnd === end)) return;
    const timer = setTimeout(() => apply({ start: nextStart, end: nextEnd }), draft.picked ? 0 : PERIOD_TYPING_DELAY_MS);
    return () => clearTimeout(timer);
  }, [nextStart, nextEnd, start, end, draft.picked]);

  return (
    // A whole row on a phone, where the two dates share its width.
    <Box role="group" aria-labelledby={legendId} sx={{ display: 'grid', gap: 0.5, minWidth: 0, flex: { xs: '1 1 100%', sm: '0 0 auto' } }}>
      <Typography id={legendId} variant="body2" color="textSecondary" sx={{ fontWeight: 600 }}>
        {legend}
      </Typography>
      <Box sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr 1fr', sm: '200px 200px' }, gap: 1 }}>
        <LazyDateField
          name="start"
          label="Du"
          size="small"
          clearable={clearable}
          value={draft.start}
          onChange={(value, { picked }) => setDraft({ ...draft, start: value, picked })}
        />
        <LazyDateField
          name="end"
          label="Au"
          size="small"
          clearable={clearable}
          value={draft.end}
          error={disordered ? ORDER_ERROR : undefined}
          onChange={(value, { picked }) => setDraft({ ...draft, end: value, picked })}
        />
      </Box>
    </Box>
  );
}
