import Box from '@mui/material/Box';
import TextField, { type TextFieldProps } from '@mui/material/TextField';
import type { ReactNode } from 'react';
import { useController, type Control, type FieldValues, type Path } from 'react-hook-form';

type FormTextFieldProps<TInput extends FieldValues, TOutput> = Omit<
  TextFieldProps,
  'name' | 'value' | 'defaultValue' | 'onChange' | 'onBlur' | 'error' | 'inputRef'
> & {
  control: Control<TInput, unknown, TOutput>;
  name: Path<TInput>;
  /** Shown at the right of the helper line, e.g. a character counter. */
  counter?: ReactNode;
};

/**
 * MUI text field bound to react-hook-form. Controlled on purpose: after a `reset()` an
 * uncontrolled MUI field keeps its floating label up over an empty input.
 */
export function FormTextField<TInput extends FieldValues, TOutput>({
  control,
  name,
  helperText,
  counter,
  ...props
}: FormTextFieldProps<TInput, TOutput>) {
  const { field, fieldState } = useController({ control, name });
  const message: ReactNode = fieldState.error?.message ?? helperText;
  return (
    <TextField
      {...props}
      name={field.name}
      value={field.value ?? ''}
      onChange={field.onChange}
      onBlur={field.onBlur}
      inputRef={field.ref}
      error={fieldState.invalid}
      helperText={
        counter ? (
          <Box component="span" sx={{ display: 'flex', justifyContent: 'space-between', gap: 2 }}>
            <span>{message}</span>
            {counter}
          </Box>
        ) : (
          message
        )
      }
    />
  );
}
