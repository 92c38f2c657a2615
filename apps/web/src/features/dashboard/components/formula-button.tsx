import InfoOutlined from '@mui/icons-material/InfoOutlined';
import IconButton from '@mui/material/IconButton';
import type { ComponentProps } from 'react';

export type FormulaButtonProps = { label: string; formula: string };

/**
 * The (i) button of a figure; without its tooltip, as it shows while the tooltip's chunk loads. The
 * Tooltip hands it its listeners and ref (React 19: ref is a prop).
 */
export function FormulaButton({ label, formula: _formula, ...rest }: FormulaButtonProps & Omit<ComponentProps<typeof IconButton>, 'children'>) {
  return (
    <IconButton size="small" aria-label={label} sx={{ mr: -1 }} {...rest}>
      <InfoOutlined fontSize="small" />
    </IconButton>
  );
}
