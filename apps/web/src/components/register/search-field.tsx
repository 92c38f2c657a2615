import { useEffect, useEffectEvent, useState } from 'react';
import { PlainField } from '../plain/plain-field';
import { ClearIcon, SearchIcon } from '../plain/plain-icons';
import './search-field.css';

export const SEARCH_DEBOUNCE_MS = 300;

export type SearchFieldProps = {
  /** The applied search (from the URL); the field follows it when it changes elsewhere (back button). */
  value: string;
  /** Called with the trimmed text, 300 ms after the last keystroke, at once on Enter or clear. */
  onChange: (search: string) => void;
  /** Accessible name, e.g. 'Rechercher un conducteur'. */
  label: string;
  /** e.g. 'Nom, prénom, e-mail ou téléphone'. */
  placeholder?: string;
  debounceMs?: number;
};

/**
 * A search box that waits for the user to pause before searching, with a clear button. Plain
 * elements with the look of MUI's small outlined TextField: it is on every register's first
 * render, and MUI's TextField brought every input variant, Select and Menu with it (issue 10).
 */
export function SearchField({ value, onChange, label, placeholder, debounceMs = SEARCH_DEBOUNCE_MS }: SearchFieldProps) {
  const [text, setText] = useState(value);
  const [applied, setApplied] = useState(value);
  // The URL changed without us (back button, a shared link, 'Effacer la recherche'): show it.
  // Our own debounced search coming back keeps the text as typed (a trailing space included).
  if (value !== applied) {
    setApplied(value);
    if (text.trim() !== value) setText(value);
  }

  const emit = useEffectEvent((search: string) => onChange(search));
  const pending = text.trim() !== value;

  useEffect(() => {
    if (!pending) return;
    const timer = setTimeout(() => emit(text.trim()), debounceMs);
    return () => clearTimeout(timer);
  }, [text, pending, debounceMs]);

  return (
    <PlainField
      className="search-field"
      type="search"
      size="small"
      aria-label={label}
      enterKeyHint="search"
      value={text}
      placeholder={placeholder}
      onChange={(event) => setText(event.target.value)}
      onKeyDown={(event) => {
        if (event.key === 'Enter' && pending) onChange(text.trim());
        if (event.key === 'Escape' && text !== '') {
          event.preventDefault();
          setText('');
          if (value !== '') onChange('');
        }
      }}
      startAdornment={<SearchIcon />}
      endAdornment={
        text ? (
          <button
            type="button"
            className="pl-icon-button pl-icon-button--small"
            aria-label="Effacer la recherche"
            onClick={() => {
              setText('');
              if (value !== '') onChange('');
            }}
          >
            <ClearIcon />
          </button>
        ) : undefined
      }
    />
  );
}
