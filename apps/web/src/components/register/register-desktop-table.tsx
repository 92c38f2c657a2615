import Box from '@mui/material/Box';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TableSortLabel from '@mui/material/TableSortLabel';
import { CellValue, isBlank, OpenRowLink, visuallyHidden } from './register-cells';
import type { RegisterTableProps } from './register-table';
import { RowActionsButton } from './row-actions-menu';
import { skeletonLinesSx } from './skeleton-lines';
import { nextSort, parseSortBy } from './use-list-search-params';

export type RegisterDesktopTableProps<TRow, TColumn extends string> = Pick<
  RegisterTableProps<TRow, TColumn>,
  'label' | 'columns' | 'getRowId' | 'getRowLabel' | 'onOpenRow' | 'onIntent' | 'sortBy' | 'onSortChange'
> & {
  /** Empty while loading, failed or empty: the header stays, the state shows below it. */
  rows: readonly TRow[];
  /** Opens the row's menu; without it the table has no actions column. */
  onOpenMenu?: (row: TRow, anchor: HTMLElement) => void;
  /** While the first page loads: this many placeholder rows, each as tall as a row of text. */
  skeletonRows?: number;
};

/** The desktop table: sortable headers (aria-sort), the key column as row header, a menu per row. */
export function RegisterDesktopTable<TRow, TColumn extends string>(props: RegisterDesktopTableProps<TRow, TColumn>) {
  const { label, columns, rows, getRowId, getRowLabel, onOpenRow, onIntent, onOpenMenu, sortBy, onSortChange, skeletonRows = 0 } = props;
  const sort = parseSortBy(sortBy);
  return (
    <TableContainer>
      <Table aria-label={label} size="medium" sx={{ minWidth: 640 }}>
        {/* Hidden (its room kept) until the rows arrive: the columns take their widths from the rows, so a header drawn before them would move. */}
        <TableHead sx={skeletonRows > 0 ? { '& th': { visibility: 'hidden' } } : undefined}>
          <TableRow>
            {columns.map((column) => {
              const active = column.sortKey !== undefined && sort.column === column.sortKey;
              return (
                <TableCell
                  key={column.id}
                  align={column.align}
                  sx={{ width: column.width, fontWeight: 700, whiteSpace: 'nowrap', bgcolor: 'grey.50' }}
                  aria-sort={active ? (sort.direction === 'asc' ? 'ascending' : 'descending') : undefined}
                >
                  {column.sortKey ? (
                    <TableSortLabel
                      active={active}
                      direction={active ? sort.direction : 'asc'}
                      onClick={() => onSortChange(nextSort(sortBy, column.sortKey as TColumn))}
                    >
                      {column.label}
                    </TableSortLabel>
                  ) : (
                    column.label
                  )}
                </TableCell>
              );
            })}
            {onOpenMenu && (
              <TableCell align="right" sx={{ width: 64, bgcolor: 'grey.50' }}>
                <Box component="span" sx={visuallyHidden}>
                  Actions
                </Box>
              </TableCell>
            )}
          </TableRow>
        </TableHead>
        {rows.length > 0 && (
          <TableBody>
            {rows.map((row) => (
              <TableRow key={getRowId(row)} hover>
                {columns.map((column, index) => {
                  const value = column.render(row);
                  return (
                    <TableCell
                      key={column.id}
                      align={column.align}
                      component={index === 0 ? 'th' : 'td'}
                      scope={index === 0 ? 'row' : undefined}
                      sx={{ whiteSpace: column.noWrap ? 'nowrap' : undefined, fontWeight: index === 0 ? 600 : undefined }}
                    >
                      {index === 0 && !isBlank(value) ? (
                        <OpenRowLink label={getRowLabel(row)} onOpen={onOpenRow && (() => onOpenRow(row))} onIntent={onIntent}>
                          {value}
                        </OpenRowLink>
                      ) : (
                        <CellValue value={value} />
                      )}
                    </TableCell>
                  );
                })}
                {onOpenMenu && (
                  <TableCell align="right" sx={{ py: 0.5 }}>
                    <RowActionsButton label={getRowLabel(row)} onOpen={(anchor) => onOpenMenu(row, anchor)} onIntent={onIntent} />
                  </TableCell>
                )}
              </TableRow>
            ))}
          </TableBody>
        )}
      </Table>
      {skeletonRows > 0 && (
        // Out of the table (its rows are the real ones only), each as tall as a row of text: a
        // cell's 16 px padding above and below a body2 line, and its bottom border.
        <Box
          aria-hidden
          data-testid="register-skeleton"
          sx={[
            {
              minWidth: 640,
              '& > div': {
                display: 'grid',
                gridTemplateColumns: `repeat(${columns.length}, minmax(0, 1fr))${onOpenMenu ? ' 64px' : ''}`,
                borderBottom: 1,
                borderColor: 'divider',
                typography: 'body2',
              },
              '& > div > div': { p: 2 },
            },
            skeletonLinesSx,
          ]}
        >
          {Array.from({ length: skeletonRows }, (_, index) => (
            <div key={index}>
              {columns.map((column) => (
                <div key={column.id}>
                  <span data-skeleton-line />
                </div>
              ))}
            </div>
          ))}
        </Box>
      )}
    </TableContainer>
  );
}
