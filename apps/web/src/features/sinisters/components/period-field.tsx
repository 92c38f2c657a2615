import { DatePicker } from '@mui/x-date-pickers/DatePicker';
import type { DateValidationError } from '@mui/x-date-pickers/models';
import dayjs, { type Dayjs } from 'dayjs';
import { useEffect, useEffectEvent, useState } from 'react';

/** Typing a date fires a change per section: wait for the pause before searching. */
const TYPING_DELAY_MS = 600;
const ISO = 'YYYY-MM-DD';

const ERRORS: Partial<Record<NonNullable<DateValidationError>, string>> = {
  invalidDate: 'Date incomplète',
  minDate: 'Antérieure au début de la période',
  maxDate: 'Postérieure à la fin de la période',
};

export type PeriodFieldProps = {
  label: string;
  /** The applied date (ISO), from the URL. */
  value: string;
  /** Called with a complete, valid ISO date. */
  onChange: (value: string) => void;
  minDate?: string;
  maxDate?: string;
};

function toDayjs(iso: string | undefined): Dayjs | undefined {
  return iso ? dayjs(iso) : undefined;
}

/**
 * One end of the claims' period: a French date picker (JJ/MM/AAAA) that applies a date picked in
 * the calendar at once and a typed one once the user pauses, never a half-typed year.
 */
export function PeriodField({ label, value, onChange, minDate, maxDate }: PeriodFieldProps) {
  const [draft, setDraft] = useState<Dayjs | null>(() => dayjs(value));
  const [error, setError] = useState<DateValidationError>(null);
  const [applied, setApplied] = useState(value);
  // The URL changed without us (back button, 'Effacer les filtres'): show it.
  if (value !== applied) {
    setApplied(value);
    setDraft(dayjs(value));
    setError(null);
  }

  const emit = useEffectEvent((iso: string) => onChange(iso));
  const draftIso = draft?.isValid() && draft.year() >= 1900 && error === null ? draft.format(ISO) : null;
  const pending = draftIso !== null && draftIso !== value;

  useEffect(() => {
    if (!pending || draftIso === null) return;
    const timer = setTimeout(() => emit(draftIso), TYPING_DELAY_MS);
    return () => clearTimeout(timer);
  }, [pending, draftIso]);

  return (
    <DatePicker
      label={label}
      value={draft}
      minDate={toDayjs(minDate)}
      maxDate={toDayjs(maxDate)}
      onChange={(next, context) => {
        setDraft(next);
        setError(context.validationError);
        // Picked in the calendar: no typing to wait for.
        if (context.source === 'view' && next?.isValid() && context.validationError === null) onChange(next.format(ISO));
      }}
      slotProps={{
        textField: {
          size: 'small',
          error: error !== null,
          helperText: error ? (ERRORS[error] ?? 'Date invalide') : undefined,
        },
      }}
      sx={{ width: { xs: '100%', sm: 172 } }}
    />
  );
}
