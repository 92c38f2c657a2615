import { useId, type InputHTMLAttributes, type ReactNode, type Ref } from 'react';
import './plain.css';

/** MUI's sizes of an outlined field: `small` is 40 px high (a register's search and filters), `medium` 56 px. */
export type PlainFieldSize = 'small' | 'medium';

type PlainFieldLabel =
  /** Shown, floating into the notch of the outline once the field is focused or filled. */
  | { label: string; 'aria-label'?: undefined }
  /** No label shown (a search box with its placeholder): the input's accessible name. */
  | { label?: undefined; 'aria-label': string };

export type PlainFieldProps = Omit<InputHTMLAttributes<HTMLInputElement>, 'id' | 'value' | 'children' | 'size' | 'aria-label'> &
  PlainFieldLabel & {
    value: string;
    /** The field's error: red outline, label and message, `aria-invalid`. */
    error?: string;
    /** Shown under the field when there is no error. */
    helperText?: ReactNode;
    /** At the start of the field, e.g. a search icon (MUI's InputAdornment `start`). */
    startAdornment?: ReactNode;
    /** At the end of the field, e.g. the password's show/hide button. */
    endAdornment?: ReactNode;
    size?: PlainFieldSize;
    inputRef?: Ref<HTMLInputElement>;
  };

/** The classes of a field's root: `pl-field`, its size, the caller's. */
export function plainFieldClass(size: PlainFieldSize | undefined, className: string | undefined) {
  return ['pl-field', size === 'small' ? 'pl-field--small' : '', className ?? ''].filter(Boolean).join(' ');
}

/** The outline, with the notch the floating label sits in (MUI's NotchedOutline). */
export function PlainOutline({ label, asterisk = '' }: { label: string | undefined; asterisk?: string }) {
  return (
    <fieldset className="pl-field__outline" aria-hidden="true">
      <legend>
        {label && (
          <span>
            {label}
            {asterisk}
          </span>
        )}
      </legend>
    </fieldset>
  );
}

/**
 * A text field with the look of the theme's MUI outlined TextField (floating label in the notch
 * of the outline, adornments, helper or error text under it), in plain elements: no MUI, no
 * emotion. `size="small"` is MUI's small field.
 */
export function PlainField({
  label,
  value,
  error,
  helperText,
  startAdornment,
  endAdornment,
  size,
  inputRef,
  required,
  className,
  ...inputProps
}: PlainFieldProps) {
  const id = useId();
  const helperId = `${id}-helper`;
  const message = error ?? helperText;
  const asterisk = required ? '\u2009*' : '';
  const boxClass = ['pl-field__box', startAdornment ? 'pl-field__box--start' : '', endAdornment ? 'pl-field__box--end' : ''].filter(Boolean).join(' ');
  return (
    <div
      className={plainFieldClass(size, className)}
      // As MUI's label: floating when the field is filled, or has something at its start.
      data-filled={value !== '' || startAdornment ? true : undefined}
      data-error={error ? true : undefined}
    >
      <div className={boxClass}>
        {label && (
          <label className="pl-field__label" htmlFor={id}>
            {label}
            {required && <span aria-hidden="true">{asterisk}</span>}
          </label>
        )}
        {startAdornment && <span className="pl-field__adornment pl-field__adornment--start">{startAdornment}</span>}
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
        <PlainOutline label={label} asterisk={asterisk} />
      </div>
      {message && (
        <p className="pl-field__helper" id={helperId}>
          {message}
        </p>
      )}
    </div>
  );
}
