import { useState } from 'react';
import { lazyModule, useLazyModule } from '../../../lib/lazy-module';
import { FormulaButton, type FormulaButtonProps } from './formula-button';
import type { FormulaTooltipProps } from './formula-tooltip';

const formulaTooltipModule = lazyModule(() => import('./formula-tooltip'));
/** Fetches the tooltip (MUI Tooltip, Popper, transitions; once). Tests await it. */
export const loadFormulaTooltip = formulaTooltipModule.load;

/**
 * A figure's (i) with its formula as a tooltip, kept out of the dashboard's first load (issue 10:
 * ≈ 15 kB and five files a phone downloaded with the figures). Until the tooltip has arrived —
 * fetched once the page is idle with a mouse, at the first hover, focus or touch of an (i)
 * otherwise — the plain button stands in; a tooltip asked meanwhile opens when it arrives, and a
 * focused stand-in hands its focus over.
 */
export function LazyFormulaTooltip({ label, formula }: FormulaButtonProps) {
  const { module, load } = useLazyModule(formulaTooltipModule);
  const [shownBy, setShownBy] = useState<FormulaTooltipProps['shownBy']>();

  if (module) return <module.FormulaTooltip label={label} formula={formula} shownBy={shownBy} />;
  const wants = (by: NonNullable<FormulaTooltipProps['shownBy']>) => () => {
    setShownBy(by);
    load();
  };
  const leaves = () => setShownBy((by) => (by === 'pointer' ? undefined : by));
  return (
    <FormulaButton
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
