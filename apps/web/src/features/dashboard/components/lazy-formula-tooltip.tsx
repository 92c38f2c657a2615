import { useEffect, useRef, useState } from 'react';
import { withChunkReload } from '../../../lib/chunk-load-guard';
import { preloadWhenIdle, whenIdle } from '../../../lib/idle-preload';
import { FormulaButton, type FormulaButtonProps } from './formula-button';
import type * as FormulaTooltipModuleType from './formula-tooltip';
import type { FormulaTooltipProps } from './formula-tooltip';

type FormulaTooltipModule = typeof FormulaTooltipModuleType;

let loaded: FormulaTooltipModule | null = null;
let loading: Promise<FormulaTooltipModule> | null = null;

/** Fetches the tooltip (MUI Tooltip, Popper, transitions; once). Tests await it. */
export function loadFormulaTooltip(): Promise<FormulaTooltipModule> {
  loading ??= withChunkReload(() => import('./formula-tooltip'))().then(
    (module) => (loaded = module),
    (error: unknown) => {
      loading = null;
      throw error;
    },
  );
  return loading;
}

/**
 * A figure's (i) with its formula as a tooltip, kept out of the dashboard's first load (issue 10:
 * ≈ 15 kB and five files a phone downloaded with the figures). Until the tooltip has arrived —
 * fetched once the page is idle with a mouse, at the first hover, focus or touch of an (i)
 * otherwise — the plain button stands in; a tooltip asked meanwhile opens when it arrives, and a
 * focused stand-in hands its focus over.
 */
export function LazyFormulaTooltip({ label, formula }: FormulaButtonProps) {
  const [module, setModule] = useState<FormulaTooltipModule | null>(loaded);
  const [failure, setFailure] = useState<unknown>(null);
  const [shownBy, setShownBy] = useState<FormulaTooltipProps['shownBy']>();
  const standIn = useRef<HTMLButtonElement>(null);

  // Once per stand-in at most (the promise is shared): also when another (i) started the fetch.
  const load = () => void loadFormulaTooltip().then(setModule, setFailure);
  useEffect(() => (loaded || !preloadWhenIdle() ? undefined : whenIdle(() => load())), []);

  // A failed fetch (not a stale chunk, which reloads the page) reaches the route's error element.
  if (failure) throw failure;
  if (module) return <module.FormulaTooltip label={label} formula={formula} shownBy={shownBy} />;
  const wants = (by: NonNullable<FormulaTooltipProps['shownBy']>) => () => {
    setShownBy(by);
    load();
  };
  const leaves = () => setShownBy((by) => (by === 'pointer' ? undefined : by));
  return (
    <FormulaButton
      ref={standIn}
      label={label}
      formula={formula}
      onPointerEnter={(event) => (event.pointerType === 'mouse' ? wants('pointer')() : undefined)}
      onPointerLeave={leaves}
      onFocus={wants('focus')}
      onBlur={() => setShownBy((by) => (by === 'focus' ? undefined : by))}
      onTouchStart={wants('touch')}
    />
  );
}
