import Box from '@mui/material/Box';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import { useTheme } from '@mui/material/styles';
import useMediaQuery from '@mui/material/useMediaQuery';
import { Fragment, type ReactNode } from 'react';

export type ResponsiveColumn<TRow> = {
  /** The column's header, and the value's label in a phone's card. */
  label: string;
  value: (row: TRow) => ReactNode;
  /** A figure: right-aligned, digits of one width, kept on one line. */
  numeric?: boolean;
};

export type ResponsiveTableProps<TRow> = {
  /** Names the table, and the list on a phone (e.g. 'Périodes d'assurance'). */
  label: string;
  rows: readonly TRow[];
  rowKey: (row: TRow) => string;
  /** What the row is (a period, a driver): the table's first column, a row header; a card's title. */
  title: ResponsiveColumn<TRow>;
  /** The row's figures, in the table's order. */
  columns: readonly ResponsiveColumn<TRow>[];
  /** What one can do with the row (edit, delete): the table's last column, beside a card's title. */
  actions?: { label: string; render: (row: TRow) => ReactNode };
};

const figure = { textAlign: 'right', fontVariantNumeric: 'tabular-nums', whiteSpace: 'nowrap' } as const;

/**
 * A small table that reads well on a phone: from 600 px a table, below one card per row, its
 * title then each figure with its label (as the registers' cards), the row's buttons beside the
 * title. A table of five figures would scroll sideways at 390 px; a card does not.
 */
export function ResponsiveTable<TRow>({ label, rows, rowKey, title, columns, actions }: ResponsiveTableProps<TRow>) {
  const phone = useMediaQuery(useTheme().breakpoints.down('sm'), { noSsr: true });

  if (phone) {
    return (
      <Box component="ul" aria-label={label} sx={{ display: 'grid', listStyle: 'none', m: 0, p: 0 }}>
        {rows.map((row) => (
          <Box component="li" key={rowKey(row)} sx={{ display: 'flex', alignItems: 'flex-start', gap: 1, py: 1.5, borderTop: 1, borderColor: 'divider' }}>
            <Box sx={{ flex: 1, minWidth: 0, display: 'grid', gap: 0.5 }}>
              <Box sx={{ fontWeight: 600, overflowWrap: 'anywhere' }}>{title.value(row)}</Box>
              <Box
                component="dl"
                sx={{
                  display: 'grid',
                  gridTemplateColumns: 'minmax(0, max-content) minmax(0, 1fr)',
                  columnGap: 2,
                  rowGap: 0.25,
                  m: 0,
                  '& dt': { typography: 'body2', color: 'text.secondary' },
                  '& dd': { typography: 'body2', m: 0, minWidth: 0, overflowWrap: 'anywhere' },
                }}
              >
                {columns.map((column) => (
                  <Fragment key={column.label}>
                    <dt>{column.label}</dt>
                    <Box component="dd" sx={column.numeric ? figure : undefined}>
                      {column.value(row)}
                    </Box>
                  </Fragment>
                ))}
              </Box>
            </Box>
            {actions && <Box sx={{ display: 'flex', flexShrink: 0, mt: -0.75 }}>{actions.render(row)}</Box>}
          </Box>
        ))}
      </Box>
    );
  }

  return (
    // Focusable in case a narrow window makes it scroll sideways (keyboard users can scroll it).
    <TableContainer tabIndex={0}>
      <Table size="small" aria-label={label}>
        <TableHead>
          <TableRow>
            <TableCell component="th" scope="col">
              {title.label}
            </TableCell>
            {columns.map((column) => (
              // A header may wrap; the figures below do not.
              <TableCell key={column.label} component="th" scope="col" sx={column.numeric ? { textAlign: 'right' } : undefined}>
                {column.label}
              </TableCell>
            ))}
            {actions && (
              <TableCell component="th" scope="col" align="right">
                {actions.label}
              </TableCell>
            )}
          </TableRow>
        </TableHead>
        <TableBody>
          {rows.map((row) => (
            <TableRow key={rowKey(row)}>
              <TableCell component="th" scope="row">
                {title.value(row)}
              </TableCell>
              {columns.map((column) => (
                <TableCell key={column.label} sx={column.numeric ? figure : undefined}>
                  {column.value(row)}
                </TableCell>
              ))}
              {actions && (
                <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>
                  {actions.render(row)}
                </TableCell>
              )}
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </TableContainer>
  );
}
