import { useId, type SelectHTMLAttributes } from 'react';
import { ArrowDropDownIcon } from './plain-icons';
import { PlainOutline, plainFieldClass, type PlainFieldSize } from './plain-field';
import './plain.css';

export type PlainChoice = { value: string; label: string };

export type PlainSelectProps = Omit<SelectHTMLAttributes<HTMLSelectElement>, 'id' | 'value' | 'children' | 'onChange' | 'multiple' | 'size'> & {
  label: string;
  value: string;
  onChange: (value: string) => void;
  choices: readonly PlainChoice[];
  /** The first option, for the value '' (e.g. 'Toutes les garanties'). */
  empty?: string;
  size?: PlainFieldSize;
};

/**
 * A single-choice select with the look of the theme's MUI outlined TextField `select` (label
 * always floating in the notch, MUI's drop-down arrow), as a native `<select>`: no MUI, and on a
 * phone the system's own picker.
 */
export function PlainSelect({ label, value, onChange, choices, empty, size, className, ...selectProps }: PlainSelectProps) {
  const id = useId();
  return (
    <div className={plainFieldClass(size, className)} data-filled>
      <div className="pl-field__box pl-field__box--select">
        <label className="pl-field__label" htmlFor={id}>
          {label}
        </label>
        <select {...selectProps} id={id} className="pl-field__input pl-field__select" value={value} onChange={(event) => onChange(event.target.value)}>
          {empty !== undefined && <option value="">{empty}</option>}
          {choices.map((choice) => (
            <option key={choice.value} value={choice.value}>
              {choice.label}
            </option>
          ))}
        </select>
        <ArrowDropDownIcon className="pl-field__select-icon" />
        <PlainOutline label={label} />
      </div>
    </div>
  );
}
