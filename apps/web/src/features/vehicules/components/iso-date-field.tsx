import { DatePicker } from '@mui/x-date-pickers/DatePicker';
import type { DateValidationError } from '@mui/x-date-pickers/models';
import dayjs, { type Dayjs } from 'dayjs';
import { useImperativeHandle, useMemo, useRef, useState, type ReactNode, type Ref } from 'react';
import { formatDate } from '../../../lib/format';

/**
 * What a form holds while the typed date is incomplete or impossible (31/02): not an ISO date,
 * so the contract's schema refuses it and the form cannot be sent.
 */
export const INVALID_DATE = 'date-invalide';

/** Said under a date field holding INVALID_DATE. */
export const INVALID_DATE_MESSAGE = 'Date incomplète ou invalide (JJ/MM/AAAA)';

/** Dates before this are typing accidents (the year section reads 0002 while typing 2025). */
const MIN_DATE = '1900-01-01';

export type IsoDateFieldProps = {
  label: string;
  /** `YYYY-MM-DD`, `null` or `''` when empty, or INVALID_DATE. */
  value: string | null;
  /** Called with `YYYY-MM-DD`, `null` once emptied, or INVALID_DATE while the typed date is not a real one. */
  onChange: (value: string | null) => void;
  onBlur?: () => void;
  /** A message from the form (required, date rules, the API): shown when the date itself is readable. */
  error?: string;
  helperText?: ReactNode;
  required?: boolean;
  /** `YYYY-MM-DD`: earlier dates are refused with a French message. */
  minDate?: string;
  maxDate?: string;
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
 * MUI's DatePicker (JJ/MM/AAAA, French calendar) for the ISO dates of the contract. It keeps what
 * is being typed on its own, so an incomplete date is never lost when the parent holds on to the
 * last valid one (the URL filters do), and says in French what is wrong with it once left.
 */
export function IsoDateField({
  label,
  value,
  onChange,
  onBlur,
  error,
  helperText,
  required,
  minDate = MIN_DATE,
  maxDate,
  name,
  size,
  focusRef,
}: IsoDateFieldProps) {
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
  // The value changed without us (a reset, the back button): show it, unless it is what is typed.
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
        if (next === null) onChange(null);
        else if (context.validationError === null && next.isValid()) onChange(next.format('YYYY-MM-DD'));
        else onChange(INVALID_DATE);
      }}
      onClose={() => setLeft(true)}
      slotProps={{
        field: { clearable: true },
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
              onChange(INVALID_DATE);
            }
            onBlur?.();
          },
        },
      }}
    />
  );
}
