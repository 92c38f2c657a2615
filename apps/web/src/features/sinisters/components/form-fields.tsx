import Autocomplete, { createFilterOptions } from '@mui/material/Autocomplete';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormHelperText from '@mui/material/FormHelperText';
import Box from '@mui/material/Box';
import Switch from '@mui/material/Switch';
import TextField from '@mui/material/TextField';
import { DatePicker } from '@mui/x-date-pickers/DatePicker';
import dayjs, { type Dayjs } from 'dayjs';
import { useId, useState, type ReactNode } from 'react';
import { useController, type Control, type FieldValues, type Path } from 'react-hook-form';

// Form fields the claim form needs beyond components/form/form-text-field.tsx. They follow its
// shape (control + name, the error message in place of the helper text) so they can move there
// once another form needs them.

type Bound<TInput extends FieldValues, TOutput> = {
  control: Control<TInput, unknown, TOutput>;
  name: Path<TInput>;
  label: string;
  helperText?: ReactNode;
  required?: boolean;
};

const ISO = 'YYYY-MM-DD';
/** What the form holds for a date typed but not complete or not real: the schema says 'Date invalide'. */
const INVALID_DATE = 'invalide';

/**
 * A French date picker (JJ/MM/AAAA) holding an ISO date string. The picker keeps what is being
 * typed; the form gets the ISO date once it is complete.
 */
export function FormDateField<TInput extends FieldValues, TOutput>({
  control,
  name,
  label,
  helperText,
  required,
  maxDate,
}: Bound<TInput, TOutput> & { maxDate?: string }) {
  const { field, fieldState } = useController({ control, name });
  const value = (field.value as string | undefined) ?? '';
  const [draft, setDraft] = useState<Dayjs | null>(() => (value && value !== INVALID_DATE ? dayjs(value) : null));
  const [held, setHeld] = useState(value);
  // The form changed it (reset): show it.
  if (value !== held) {
    setHeld(value);
    if (value !== INVALID_DATE && value !== (draft?.isValid() ? draft.format(ISO) : '')) setDraft(value ? dayjs(value) : null);
  }
  return (
    <DatePicker
      label={label}
      value={draft}
      maxDate={maxDate ? dayjs(maxDate) : undefined}
      inputRef={field.ref}
      onChange={(next) => {
        setDraft(next);
        const iso = next === null ? '' : next.isValid() ? next.format(ISO) : INVALID_DATE;
        setHeld(iso);
        field.onChange(iso);
      }}
      onClose={field.onBlur}
      slotProps={{
        textField: {
          required,
          name: field.name,
          onBlur: field.onBlur,
          error: fieldState.invalid,
          helperText: fieldState.error?.message ?? helperText,
        },
      }}
    />
  );
}

export function FormSwitch<TInput extends FieldValues, TOutput>({ control, name, label, helperText }: Bound<TInput, TOutput>) {
  const { field, fieldState } = useController({ control, name });
  const helperId = useId();
  const message = fieldState.error?.message ?? helperText;
  return (
    <Box>
      <FormControlLabel
        label={label}
        control={
          <Switch
            name={field.name}
            checked={Boolean(field.value)}
            onChange={(event) => field.onChange(event.target.checked)}
            onBlur={field.onBlur}
            slotProps={{ input: { ref: field.ref, 'aria-describedby': message ? helperId : undefined } }}
          />
        }
      />
      {message && (
        <FormHelperText id={helperId} error={fieldState.invalid} sx={{ mt: -0.5, ml: 6 }}>
          {message}
        </FormHelperText>
      )}
    </Box>
  );
}

export type FormAutocompleteProps<TInput extends FieldValues, TOutput, TOption extends { uuid: string }> = Bound<TInput, TOutput> & {
  options: readonly TOption[];
  getOptionLabel: (option: TOption) => string;
  /** Extra text the search matches, e.g. the plate without dashes. */
  getSearchText?: (option: TOption) => string;
  loading?: boolean;
  noOptionsText: string;
  placeholder?: string;
};

/** Picks one option by its uuid (`''` for none), searching as the user types. */
export function FormAutocomplete<TInput extends FieldValues, TOutput, TOption extends { uuid: string }>({
  control,
  name,
  label,
  helperText,
  required,
  options,
  getOptionLabel,
  getSearchText,
  loading,
  noOptionsText,
  placeholder,
}: FormAutocompleteProps<TInput, TOutput, TOption>) {
  const { field, fieldState } = useController({ control, name });
  const selected = options.find((option) => option.uuid === field.value) ?? null;
  const filterOptions = createFilterOptions<TOption>({
    stringify: (option) => `${getOptionLabel(option)} ${getSearchText?.(option) ?? ''}`,
    limit: 100,
  });
  return (
    <Autocomplete
      options={options}
      value={selected}
      onChange={(_, option) => field.onChange(option?.uuid ?? '')}
      onBlur={field.onBlur}
      getOptionLabel={getOptionLabel}
      getOptionKey={(option) => option.uuid}
      isOptionEqualToValue={(option, value) => option.uuid === value.uuid}
      filterOptions={filterOptions}
      loading={loading}
      noOptionsText={noOptionsText}
      renderInput={(params) => (
        <TextField
          {...params}
          label={label}
          name={field.name}
          required={required}
          placeholder={placeholder}
          inputRef={field.ref}
          error={fieldState.invalid}
          helperText={fieldState.error?.message ?? helperText}
        />
      )}
    />
  );
}
