import Clear from '@mui/icons-material/Clear';
import Box from '@mui/material/Box';
import Search from '@mui/icons-material/Search';
import IconButton from '@mui/material/IconButton';
import InputAdornment from '@mui/material/InputAdornment';
import TextField from '@mui/material/TextField';
import { useEffect, useEffectEvent, useState } from 'react';

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

/** A search box that waits for the user to pause before searching, with a clear button. */
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
    <Box
      sx={{
        flex: '1 1 280px',
        maxWidth: { sm: 420 },
        // The whole hint fits a phone's width.
        '& input::placeholder': { fontSize: { xs: '0.875rem', sm: 'inherit' } },
      }}
    >
      <TextField
        type="search"
        size="small"
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
        slotProps={{
          htmlInput: { 'aria-label': label, enterKeyHint: 'search' },
          input: {
            startAdornment: (
              <InputAdornment position="start">
                <Search fontSize="small" aria-hidden />
              </InputAdornment>
            ),
            endAdornment: text ? (
              <InputAdornment position="end">
                <IconButton
                  size="small"
                  edge="end"
                  aria-label="Effacer la recherche"
                  onClick={() => {
                    setText('');
                    if (value !== '') onChange('');
                  }}
                >
                  <Clear fontSize="small" />
                </IconButton>
              </InputAdornment>
            ) : undefined,
          },
        }}
        sx={{
          // The browser's own clear cross would sit next to ours.
          '& input[type="search"]::-webkit-search-cancel-button': { display: 'none' },
        }}
      />
    </Box>
  );
}
