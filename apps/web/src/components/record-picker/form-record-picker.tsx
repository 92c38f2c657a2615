import Autocomplete from '@mui/material/Autocomplete';
import Paper, { type PaperProps } from '@mui/material/Paper';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { createContext, use, useMemo, useState, type ReactNode } from 'react';
import { useController, type Control, type FieldValues, type Path } from 'react-hook-form';
import { choiceMatches } from './choice-match';
import type { PickerTexts } from './picker-texts';
import type { Choice, RecordChoices } from './record-choices';
import { useRecordChoices } from './use-record-choices';

export type FormRecordPickerProps<TInput extends FieldValues, TOutput, TChoice extends Choice> = {
  control: Control<TInput, unknown, TOutput>;
  /** The form field holding the chosen record's uuid (`''` for none). */
  name: Path<TInput>;
  label: string;
  required?: boolean;
  helperText?: ReactNode;
  placeholder?: string;
  /** Where the choices come from (`recordChoices(...)`). */
  choices: RecordChoices<TChoice>;
  /** How a person recognises a choice: 'AB-123-CD · Renault Master'. */
  getOptionLabel: (choice: NoInfer<TChoice>) => string;
  /** More text a search in the browser matches (the label is always matched). */
  getSearchText?: (choice: NoInfer<TChoice>) => string;
  /**
   * The record the form's value already names (editing): shown even when it is not among the
   * choices loaded (beyond the first page, or archived since), from the data the form's record
   * carries.
   */
  current?: NoInfer<TChoice> | null;
  texts: PickerTexts;
};

/** What the list's foot says (more found than shown), through the popper's portal. */
const ListFooter = createContext<string | null>(null);

function PaperWithFooter({ children, ...props }: PaperProps) {
  const footer = use(ListFooter);
  return (
    <Paper {...props}>
      {children}
      {footer && (
        <Typography variant="caption" component="p" sx={{ px: 2, py: 1, color: 'text.secondary', borderTop: 1, borderColor: 'divider' }}>
          {footer}
        </Typography>
      )}
    </Paper>
  );
}

/**
 * Picks one record of a register by its uuid. A register of up to CHOICES_LIMIT records is read
 * once and searched in the browser; a larger one is searched on the server as the person types
 * (components/record-picker/README.md).
 */
export function FormRecordPicker<TInput extends FieldValues, TOutput, TChoice extends Choice>({
  control,
  name,
  label,
  required,
  helperText,
  placeholder,
  choices,
  getOptionLabel,
  getSearchText,
  current,
  texts,
}: FormRecordPickerProps<TInput, TOutput, TChoice>) {
  const { field, fieldState } = useController({ control, name });
  const [term, setTerm] = useState('');
  const [picked, setPicked] = useState<TChoice | null>(null);
  const state = useRecordChoices(choices, term);

  const uuid = field.value as string;
  const selected = useMemo(
    () => (uuid ? ([picked, current, ...state.options].find((choice) => choice?.uuid === uuid) ?? null) : null),
    [uuid, picked, current, state.options],
  );

  const matches = (choice: TChoice) => choiceMatches(`${getOptionLabel(choice)} ${getSearchText?.(choice) ?? ''}`, term);
  // What the list shows for the term: held whole, filtered here; searched, the server's answer
  // (the previous term's narrowed here until it comes).
  const shown: TChoice[] = state.mode === 'search' && !state.previous ? [...state.options] : state.options.filter(matches);
  // The chosen record is always among the options, so the field shows it whatever the list holds.
  const options = selected && !shown.some((choice) => choice.uuid === selected.uuid) ? [selected, ...shown] : shown;
  const listed = selected && term === '' ? options : shown;

  const noOptionsText = state.error
    ? state.error.message
    : state.mode === 'search' && term.trim() === ''
      ? texts.typeToSearch(state.total, state.capped)
      : state.mode === 'all' && state.total === 0
        ? texts.empty
        : texts.none;

  const footer =
    state.mode === 'search' && term.trim() !== '' && !state.previous && state.found > state.options.length
      ? texts.more(state.options.length, state.found, state.foundCapped)
      : // Nothing typed in a large register, the chosen record alone in the list: say how to find the others.
        state.mode === 'search' && term.trim() === '' && listed.length > 0
        ? texts.typeToSearch(state.total, state.capped)
        : null;

  return (
    <ListFooter value={footer}>
      <Autocomplete
        options={options}
        value={selected}
        onChange={(_, choice) => {
          setPicked(choice);
          setTerm('');
          field.onChange(choice?.uuid ?? '');
        }}
        onInputChange={(_, value, reason) => setTerm(reason === 'input' ? value : '')}
        onBlur={field.onBlur}
        getOptionLabel={getOptionLabel}
        getOptionKey={(choice) => choice.uuid}
        isOptionEqualToValue={(choice, value) => choice.uuid === value.uuid}
        // The list is computed above (in the browser or by the server), never filtered again by MUI.
        filterOptions={() => listed}
        loading={state.loading}
        loadingText={state.searching ? texts.searching : texts.loading}
        noOptionsText={noOptionsText}
        slots={{ paper: PaperWithFooter }}
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
    </ListFooter>
  );
}
