import FormControlLabel from '@mui/material/FormControlLabel';
import FormHelperText from '@mui/material/FormHelperText';
import Box from '@mui/material/Box';
import Switch from '@mui/material/Switch';
import { useId, type ReactNode } from 'react';
import { useController, type Control, type FieldValues, type Path } from 'react-hook-form';

// Form fields the claim form needs beyond components/form/form-text-field.tsx. They follow its
// shape (control + name, the error message in place of the helper text) so they can move there
// once another form needs them. A record's choice is components/record-picker.

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
