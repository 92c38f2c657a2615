import Box from '@mui/material/Box';
import Link from '@mui/material/Link';
import type { ReactNode } from 'react';
import { intentProps } from './intent';

export type RegisterColumn<TRow, TColumn extends string = string> = {
  /** Unique among the columns (React key). */
  id: string;
  /** Header text; also the label of the value on a mobile card. */
  label: string;
  /** The API sort column behind this column: makes the header sortable. */
  sortKey?: TColumn;
  /** Cell content. `''`, `null` or `undefined` show a dash read as 'Non renseigné'. */
  render: (row: TRow) => ReactNode;
  align?: 'left' | 'right' | 'center';
  /** CSS width on desktop, e.g. `'20%'` or `160`. */
  width?: number | string;
  /** Keep the value on one line (phones, plates, amounts, dates). */
  noWrap?: boolean;
  /** Leave it out of the mobile cards, e.g. when `getRowLabel` (the card title) already says it. */
  hideOnMobile?: boolean;
};

/** Read by screen readers, not shown. */
export const visuallyHidden = {
  border: 0,
  clip: 'rect(0 0 0 0)',
  height: 1,
  margin: -1,
  overflow: 'hidden',
  padding: 0,
  position: 'absolute',
  whiteSpace: 'nowrap',
  width: 1,
} as const;

export function isBlank(value: ReactNode): boolean {
  return value === null || value === undefined || value === '' || value === false;
}

/** A cell's value, or a dash read as 'Non renseigné'. */
export function CellValue({ value }: { value: ReactNode }) {
  if (!isBlank(value)) return <>{value}</>;
  return (
    <>
      <Box component="span" aria-hidden sx={{ color: 'text.secondary' }}>
        —
      </Box>
      <Box component="span" sx={visuallyHidden}>
        Non renseigné
      </Box>
    </>
  );
}

/** The row's key cell (desktop) or card title (mobile): a 'Voir <name>' link when the row opens. */
export function OpenRowLink({ label, onOpen, onIntent, children }: { label: string; onOpen?: () => void; onIntent?: () => void; children: ReactNode }) {
  if (!onOpen) return <>{children}</>;
  return (
    <Link
      component="button"
      type="button"
      onClick={onOpen}
      {...intentProps(onIntent)}
      aria-label={`Voir ${label}`}
      sx={{ font: 'inherit', fontWeight: 600, textAlign: 'left', verticalAlign: 'baseline' }}
    >
      {children}
    </Link>
  );
}
