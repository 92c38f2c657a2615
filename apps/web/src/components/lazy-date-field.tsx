import EventIcon from '@mui/icons-material/Event';
import FormControl from '@mui/material/FormControl';
import InputAdornment from '@mui/material/InputAdornment';
import InputLabel from '@mui/material/InputLabel';
import OutlinedInput from '@mui/material/OutlinedInput';
import { useEffect, useId, useImperativeHandle, useRef } from 'react';
import { formatDate } from '../lib/format';
import { lazyModule, useLazyModule } from '../lib/lazy-module';
import { INVALID_DATE } from './date-field-values';
import type { DateFieldProps } from './date-field';

const dateFieldModule = lazyModule(() => import('./date-field'));
/** Fetches DateField and @mui/x-date-pickers (once). Tests await it so the real fields are there. */
export const loadDateField = dateFieldModule.load;

/**
 * DateField for a field shown with a list (a period filter): the page's first load carries none
 * of the date pickers. Until they have arrived (fetched once the page is idle with a mouse, and at
 * once when the field is hovered, focused or touched) a read-only stand-in of the same size shows the date, so
 * nothing moves when the real field takes its place, and a field focused meanwhile keeps the focus.
 */
export function LazyDateField(props: DateFieldProps) {
  const { module, load } = useLazyModule(dateFieldModule);
  const placeholderRef = useRef<HTMLInputElement>(null);
  const fieldRef = useRef<{ focus: () => void }>(null);
  const focusAfterLoad = useRef(false);
  const inputId = useId();
  useImperativeHandle(props.focusRef, () => ({
    focus: () => (fieldRef.current ? fieldRef.current.focus() : placeholderRef.current?.focus()),
  }));

  useEffect(() => {
    if (module && focusAfterLoad.current) {
      focusAfterLoad.current = false;
      fieldRef.current?.focus();
    }
  }, [module]);

  if (module) return <module.DateField {...props} focusRef={fieldRef} />;

  const { label, value, required, size, name } = props;
  const shown = value && value !== INVALID_DATE ? formatDate(value) : '';
  return (
    <FormControl fullWidth size={size} required={required} onPointerEnter={load} onTouchStart={load}>
      <InputLabel htmlFor={inputId} shrink={shown !== ''}>
        {label}
      </InputLabel>
      <OutlinedInput
        id={inputId}
        name={name}
        label={required ? `${label} *` : label}
        value={shown}
        readOnly
        inputRef={placeholderRef}
        onFocus={() => {
          focusAfterLoad.current = true;
          load();
        }}
        onBlur={() => {
          focusAfterLoad.current = false;
        }}
        endAdornment={
          <InputAdornment position="end">
            {/* Where the picker's calendar button will be (IconButton, edge end). */}
            <EventIcon aria-hidden sx={{ mr: -0.25, p: 0, color: 'action.active' }} />
          </InputAdornment>
        }
      />
    </FormControl>
  );
}
