import { VEHICULE_TYPES, type VehiculeTypeCode } from '@flotte/contract';
import { Suspense, useId, useState, type KeyboardEvent } from 'react';
import { lazyComponent } from '../../../components/lazy-component';
import { PlainOutline, plainFieldClass } from '../../../components/plain/plain-field';
import { ArrowDropDownIcon } from '../../../components/plain/plain-icons';
import { vehiculeTypeShortLabel } from '../utils/vehicule-texts';

export const CATEGORY_CODES: readonly string[] = VEHICULE_TYPES.map((type) => type.code);

/** `'VP,VUL'` → `['VP', 'VUL']`, unknown codes (an old link) left out. */
export function parseTypes(value: string): VehiculeTypeCode[] {
  return value.split(',').filter((code): code is VehiculeTypeCode => CATEGORY_CODES.includes(code));
}

/** What the closed select shows: 'Toutes', or the short labels ('VP, VUL'). */
export function categoriesShown(codes: readonly string[]): string {
  return codes.length === 0 ? 'Toutes' : codes.map((code) => vehiculeTypeShortLabel(code)).join(', ');
}

export type CategoryFilterProps = {
  /** The URL's `types`: `'VP,VUL'`, `''` for every category. */
  value: string;
  onChange: (value: string) => void;
};

const CategorySelect = lazyComponent(() => import('./category-select').then((module) => module.CategorySelect));

/** The keys that open MUI's select from its closed box. */
const OPENING_KEYS = new Set([' ', 'ArrowUp', 'ArrowDown', 'Enter']);

/**
 * 'Catégories': several categories at once, written to the URL as `types=VP,VUL`. The select is
 * MUI's (a menu of options with checkbox pictures), fetched on the first sign of interest (hover,
 * touch, focus) and shown from the first click or opening key, opened: until then a plain
 * stand-in of the same size and look says the choice, so /vehicules' first load carries neither
 * MUI's select, menu and popover nor its text field (issue 10).
 */
export function CategoryFilter({ value, onChange }: CategoryFilterProps) {
  const [opened, setOpened] = useState(false);
  const [waiting, setWaiting] = useState(false);
  const labelId = useId();

  const open = () => {
    if (waiting) return;
    setWaiting(true);
    // The stand-in stays (and keeps the focus) until the module is there; a failure is told by
    // rendering the lazy component (the route's error element, or a reload for a stale chunk).
    void CategorySelect.load().finally(() => setOpened(true));
  };

  const standIn = (
    <div className={plainFieldClass('small', 'category-filter')} data-filled>
      <div className="pl-field__box pl-field__box--select" onPointerEnter={CategorySelect.preload} onTouchStart={CategorySelect.preload}>
        <span className="pl-field__label" id={labelId}>
          Catégories
        </span>
        <div
          role="combobox"
          tabIndex={0}
          aria-labelledby={labelId}
          aria-haspopup="listbox"
          aria-expanded="false"
          aria-busy={waiting || undefined}
          className="pl-field__input pl-field__select"
          onFocus={CategorySelect.preload}
          onClick={open}
          onKeyDown={(event: KeyboardEvent) => {
            if (!OPENING_KEYS.has(event.key)) return;
            event.preventDefault();
            open();
          }}
        >
          {categoriesShown(parseTypes(value))}
        </div>
        <ArrowDropDownIcon className="pl-field__select-icon" />
        <PlainOutline label="Catégories" />
      </div>
    </div>
  );

  if (!opened) return standIn;
  return (
    <Suspense fallback={standIn}>
      <CategorySelect value={value} onChange={onChange} defaultOpen />
    </Suspense>
  );
}
