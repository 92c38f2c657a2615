import { AdapterDayjs } from '@mui/x-date-pickers/AdapterDayjs';
import { DatePicker } from '@mui/x-date-pickers/DatePicker';
import { LocalizationProvider } from '@mui/x-date-pickers/LocalizationProvider';
import { frFR } from '@mui/x-date-pickers/locales';
import type { DateValidationError } from '@mui/x-date-pickers/models';
import dayjs, { type Dayjs } from 'dayjs';
import 'dayjs/locale/fr';
import { useImperativeHandle, useMemo, useRef, useState, type ReactNode, type Ref } from 'react';
import { formatDate } from '../lib/format';
import { INVALID_DATE, INVALID_DATE_MESSAGE } from './date-field-values';

export { INVALID_DATE, INVALID_DATE_MESSAGE };

/** The pickers' French texts ('Effacer la valeur', 'Jour', 'Choisir une date'…). */
const FRENCH_TEXTS = frFR.components.MuiLocalizationProvider.defaultProps.localeText;

/** Dates before this are typing accidents (the year section reads 0002 while typing 2025). */
const MIN_DATE = '1900-01-01';

export type DateFieldChange = {
  /** Chosen in the calendar (a filter applies it at once) rather than typed (a filter waits for the pause). */
  picked: boolean;
};

export type DateFieldProps = {
  label: string;
  /** `YYYY-MM-DD`, `null` or `''` when empty, or INVALID_DATE. */
  value: string | null;
  /** Called with `YYYY-MM-DD`, `null` once emptied, or INVALID_DATE while the date is not a real one within min/max. */
  onChange: (value: string | null, change: DateFieldChange) => void;
  onBlur?: () => void;
  /** A message from the owner (required, date rules, the API, a period's order), shown at once. */
  error?: string;
  helperText?: ReactNode;
  required?: boolean;
  /** `YYYY-MM-DD`: earlier dates are refused with a French message. */
  minDate?: string;
  maxDate?: string;
  /** Offers the clear button (default true). */
  clearable?: boolean;
  name?: string;
  size?: 'small' | 'medium';
  /** Receives `{ focus }` (react-hook-form's `field.ref`): focuses the day, as a text input would. */
  focusRef?: Ref<{ focus: () => void }>;
};

function toDayjs(value: string | null): Dayjs | null {
  return value && value !== INVALID_DATE ? dayjs(value) : null;
}

function keyOf(date: Dayjs | null): string | null {
  if (date === null) return null;
  return date.isValid() ? date.format('YYYY-MM-DD') : INVALID_DATE;
}

function pickerMessage(error: DateValidationError, minDate: string, maxDate?: string): string | null {
  switch (error) {
    case null:
      return null;
    case 'minDate':
      return `La date doit être postérieure ou égale au ${formatDate(minDate)}`;
    case 'maxDate':
      return maxDate ? `La date doit être antérieure ou égale au ${formatDate(maxDate)}` : 'Date trop tardive';
    default:
      return INVALID_DATE_MESSAGE;
  }
}

/**
 * The one date field of the app, in forms and filters alike: MUI's DatePicker (JJ/MM/AAAA, French
 * calendar) for the contract's ISO dates. It keeps what is being typed on its own, so an
 * incomplete date is never lost when its owner holds on to the last valid one (a URL filter
 * does), and says in French what is wrong with the date once the user leaves the field.
 *
 * It brings its own French LocalizationProvider: the app's providers carry no date-picker code,
 * so this module (and @mui/x-date-pickers) loads only with a form or filter that shows a date.
 * Visible with a list, use LazyDateField (lazy-date-field.tsx) to keep it out of the first load.
 */
export function DateField(props: DateFieldProps) {
  return (
    <LocalizationProvider dateAdapter={AdapterDayjs} adapterLocale="fr" localeText={FRENCH_TEXTS}>
      <FrenchDateField {...props} />
    </LocalizationProvider>
  );
}

function FrenchDateField({
  label,
  value,
  onChange,
  onBlur,
  error,
  helperText,
  required,
  minDate = MIN_DATE,
  maxDate,
  clearable = true,
  name,
  size,
  focusRef,
}: DateFieldProps) {
  const rootRef = useRef<HTMLDivElement>(null);
  useImperativeHandle(focusRef, () => ({
    focus: () => rootRef.current?.querySelector<HTMLElement>('[role="spinbutton"]')?.focus(),
  }));
  const min = useMemo(() => dayjs(minDate), [minDate]);
  const max = useMemo(() => (maxDate ? dayjs(maxDate) : undefined), [maxDate]);
  const normalized = value === '' ? null : value;
  const [draft, setDraft] = useState<Dayjs | null>(() => toDayjs(normalized));
  const [applied, setApplied] = useState(normalized);
  const [pickerError, setPickerError] = useState<DateValidationError>(null);
  // Some sections typed, others not: MUI keeps the value null then, so it must be noticed here.
  const [partial, setPartial] = useState(false);
  const [left, setLeft] = useState(false);
  // The value changed without us (a reset, the back button, 'Effacer les filtres'): show it, unless it is what is typed.
  if (normalized !== applied) {
    setApplied(normalized);
    if (normalized !== INVALID_DATE && normalized !== keyOf(draft)) {
      setDraft(toDayjs(normalized));
      setPickerError(null);
      setPartial(false);
    }
  }

  const ownMessage = left || error ? (partial ? INVALID_DATE_MESSAGE : pickerMessage(pickerError, minDate, maxDate)) : null;
  const message = ownMessage ?? error;

  return (
    <DatePicker
      label={label}
      value={draft}
      minDate={min}
      maxDate={max}
      ref={rootRef}
      onError={setPickerError}
      onChange={(next, context) => {
        setDraft(next);
        setPartial(false);
        const picked = context.source === 'view';
        if (next === null) onChange(null, { picked });
        else if (context.validationError === null && next.isValid()) onChange(next.format('YYYY-MM-DD'), { picked });
        else onChange(INVALID_DATE, { picked });
      }}
      onClose={() => setLeft(true)}
      slotProps={{
        field: { clearable },
        textField: {
          name,
          size,
          required,
          fullWidth: true,
          error: Boolean(message),
          helperText: message ?? helperText,
          onBlur: (event) => {
            // Moving from the day to the month is not leaving the field.
            if (event.currentTarget.contains(event.relatedTarget as Node | null)) return;
            setLeft(true);
            // The hidden input reads '15/MM/AAAA' when only the day was typed.
            const typed = rootRef.current?.querySelector('input')?.value ?? '';
            if (draft === null && typed !== '') {
              setPartial(true);
              onChange(INVALID_DATE, { picked: false });
            }
            onBlur?.();
          },
        },
      }}
    />
  );
}
