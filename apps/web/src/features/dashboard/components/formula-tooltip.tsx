import Tooltip from '@mui/material/Tooltip';
import { FormulaButton, type FormulaButtonProps } from './formula-button';

/**
 * The formula and the figures behind a value, on hover, focus or touch (MUI Tooltip and Popper:
 * ≈ 10 kB brotli, in a chunk of its own, after the cards).
 */
export function FormulaTooltip({ label, formula }: FormulaButtonProps) {
  return (
    <Tooltip title={formula} describeChild enterTouchDelay={0} leaveTouchDelay={8000}>
      <FormulaButton label={label} formula={formula} />
    </Tooltip>
  );
}
