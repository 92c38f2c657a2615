import Autocomplete, { createFilterOptions } from '@mui/material/Autocomplete';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormHelperText from '@mui/material/FormHelperText';
import Box from '@mui/material/Box';
import Switch from '@mui/material/Switch';
import TextField from '@mui/material/TextField';
import { useId, type ReactNode } from 'react';
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
