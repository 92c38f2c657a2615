import Tooltip from '@mui/material/Tooltip';
import { useEffect, useRef, useState } from 'react';
import { FormulaButton, type FormulaButtonProps } from './formula-button';

/** How long a tooltip opened by a touch stays (as MUI's own, `leaveTouchDelay`). */
const TOUCH_SHOW_MS = 8000;

export type FormulaTooltipProps = FormulaButtonProps & {
  /**
   * The stand-in (lazy-formula-tooltip.tsx) was hovered, focused or touched while this chunk
   * loaded: the tooltip opens at once, as it would have, and a focused stand-in hands its focus over.
   */
  shownBy?: 'pointer' | 'focus' | 'touch';
};

/**
 * The formula and the figures behind a value, on hover, focus or touch (MUI Tooltip and Popper:
 * ≈ 15 kB brotli, in chunks of their own, fetched at the first sign of intent: lazy-formula-tooltip.tsx).
 */
export function FormulaTooltip({ label, formula, shownBy }: FormulaTooltipProps) {
  const [open, setOpen] = useState(shownBy !== undefined);
  const button = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (shownBy === 'focus') button.current?.focus();
    // MUI's own touch timer started with a touch this button never saw: close as it would.
    if (shownBy !== 'touch') return undefined;
    const timer = window.setTimeout(() => setOpen(false), TOUCH_SHOW_MS);
    return () => window.clearTimeout(timer);
  }, [shownBy]);
  return (
    <Tooltip title={formula} describeChild enterTouchDelay={0} leaveTouchDelay={TOUCH_SHOW_MS} open={open} onOpen={() => setOpen(true)} onClose={() => setOpen(false)}>
      <FormulaButton label={label} formula={formula} ref={button} />
    </Tooltip>
  );
}
