import { useId, type InputHTMLAttributes, type ReactNode, type Ref } from 'react';
import './plain.css';

export type PlainFieldProps = Omit<InputHTMLAttributes<HTMLInputElement>, 'id' | 'value' | 'children'> & {
  label: string;
  value: string;
  /** The field's error: red outline, label and message, `aria-invalid`. */
  error?: string;
  /** Shown under the field when there is no error. */
  helperText?: ReactNode;
  /** At the end of the field, e.g. the password's show/hide button. */
  endAdornment?: ReactNode;
  inputRef?: Ref<HTMLInputElement>;
};

/**
 * A text field with the look of the theme's MUI outlined TextField (floating label in the notch
 * of the outline, helper or error text under it), in plain elements: no MUI, no emotion.
 */
export function PlainField({ label, value, error, helperText, endAdornment, inputRef, required, className, ...inputProps }: PlainFieldProps) {
  const id = useId();
  const helperId = `${id}-helper`;
  const message = error ?? helperText;
  const asterisk = required ? '\u2009*' : '';
  return (
    <div className={className ? `pl-field ${className}` : 'pl-field'} data-filled={value !== '' || undefined} data-error={error ? true : undefined}>
      <div className={endAdornment ? 'pl-field__box pl-field__box--end' : 'pl-field__box'}>
        <label className="pl-field__label" htmlFor={id}>
          {label}
          {required && <span aria-hidden="true">{asterisk}</span>}
        </label>
        <input
          {...inputProps}
          ref={inputRef}
          id={id}
          className="pl-field__input"
          value={value}
          required={required}
          aria-invalid={error ? true : undefined}
          aria-describedby={message ? helperId : undefined}
        />
        {endAdornment}
        <fieldset className="pl-field__outline" aria-hidden="true">
          <legend>
            <span>
              {label}
              {asterisk}
            </span>
          </legend>
        </fieldset>
      </div>
      {message && (
        <p className="pl-field__helper" id={helperId}>
          {message}
        </p>
      )}
    </div>
  );
}
