import type { ReactNode } from 'react';
import { useController, type Control, type FieldValues, type Path } from 'react-hook-form';
import { DateField } from '../date-field';

export type FormDateFieldProps<TInput extends FieldValues, TOutput> = {
  control: Control<TInput, unknown, TOutput>;
  name: Path<TInput>;
  label: string;
  helperText?: ReactNode;
  required?: boolean;
  /** `YYYY-MM-DD` bounds, said in French when crossed. */
  minDate?: string;
  maxDate?: string;
};

/**
 * DateField bound to react-hook-form: the form holds `YYYY-MM-DD`, null when empty, or
 * INVALID_DATE while the typed date is not a real one (the schema then refuses it).
 */
export function FormDateField<TInput extends FieldValues, TOutput>({ control, name, ...props }: FormDateFieldProps<TInput, TOutput>) {
  const { field, fieldState } = useController({ control, name });
  return (
    <DateField
      {...props}
      name={field.name}
      value={(field.value as string | null | undefined) ?? null}
      onChange={(value) => field.onChange(value)}
      onBlur={field.onBlur}
      focusRef={field.ref}
      error={fieldState.error?.message}
    />
  );
}
