import Box from '@mui/material/Box';
import { Fragment, type ReactNode } from 'react';
import { PlainSelect } from '../plain/plain-select';
import { CellValue, OpenRowLink, type RegisterColumn } from './register-cells';
import type { RegisterDesktopTableProps } from './register-desktop-table';
import type { RegisterTableProps } from './register-table';
import { RowActionsButton } from './row-actions-menu';
import { skeletonLinesSx } from './skeleton-lines';
import type { SortBy } from './use-list-search-params';

function sortOptions<TRow, TColumn extends string>(columns: readonly RegisterColumn<TRow, TColumn>[]) {
  return columns.flatMap((column) =>
    column.sortKey
      ? [
          { value: column.sortKey as SortBy<TColumn>, label: `${column.label} (croissant)` },
          { value: `-${column.sortKey}` as SortBy<TColumn>, label: `${column.label} (décroissant)` },
        ]
      : [],
  );
}

/** A phone has no column headers to click: 'Trier par' offers every sortable column both ways. */
export function MobileSortSelect<TRow, TColumn extends string>({
  columns,
  sortBy,
  onSortChange,
}: Pick<RegisterDesktopTableProps<TRow, TColumn>, 'columns' | 'sortBy' | 'onSortChange'>) {
  const options = sortOptions(columns);
  if (options.length === 0) return null;
  return (
    <Box sx={{ px: 2, pt: 1, pb: 1.5, borderBottom: 1, borderColor: 'divider' }}>
      <PlainSelect size="small" label="Trier par" value={sortBy} onChange={(value) => onSortChange(value as SortBy<TColumn>)} choices={options} />
    </Box>
  );
}

/** What the cards and their skeletons share: the card's spacing and its label/value list. */
const cardsSx = {
  listStyle: 'none',
  m: 0,
  p: 0,
  '& > li': { px: 2, py: 1.5, borderTop: 1, borderColor: 'divider', display: 'grid', gap: 0.75 },
  '& > li:first-of-type': { borderTop: 0 },
  '& .card-title': { display: 'flex', alignItems: 'center', gap: 1, minWidth: 0 },
  '& dl': { display: 'grid', gridTemplateColumns: 'max-content 1fr', columnGap: 1.5, rowGap: 0.25, m: 0 },
  '& dt': { typography: 'body2', color: 'text.secondary' },
  '& dd': { typography: 'body2', m: 0, minWidth: 0, overflowWrap: 'anywhere' },
} as const;

/** A card's label/value list: the columns a phone shows, each value given by `value`. */
function CardFields<TRow, TColumn extends string>({
  columns,
  value,
}: {
  columns: readonly RegisterColumn<TRow, TColumn>[];
  value: (column: RegisterColumn<TRow, TColumn>) => ReactNode;
}) {
  return (
    <dl>
      {columns
        .filter((column) => !column.hideOnMobile)
        .map((column) => (
          <Fragment key={column.id}>
            <dt>{column.label}</dt>
            <dd>{value(column)}</dd>
          </Fragment>
        ))}
    </dl>
  );
}

/**
 * Below 600 px: one card per row, titled by the row's name, its values as a label/value list.
 * Plain elements under one style, MUI only for what a person acts on (the link, the menu): a
 * page of cards was some two hundred MUI components in a phone's render (issue 10).
 */
export function RegisterCards<TRow, TColumn extends string>(
  props: Omit<RegisterDesktopTableProps<TRow, TColumn>, 'sortBy' | 'onSortChange'> & Pick<RegisterTableProps<TRow, TColumn>, 'getCardTitle'>,
) {
  const { label, columns, rows, getRowId, getRowLabel, getCardTitle = getRowLabel, onOpenRow, onIntent, onOpenMenu } = props;
  return (
    <Box
      component="ul"
      aria-label={label}
      sx={[cardsSx, { '& h2': { typography: 'subtitle1', fontWeight: 700, flex: 1, minWidth: 0, m: 0, overflowWrap: 'anywhere' } }]}
    >
      {rows.map((row) => (
        <li key={getRowId(row)}>
          <div className="card-title">
            <h2>
              <OpenRowLink label={getRowLabel(row)} onOpen={onOpenRow && (() => onOpenRow(row))} onIntent={onIntent}>
                {getCardTitle(row)}
              </OpenRowLink>
            </h2>
            {onOpenMenu && <RowActionsButton label={getRowLabel(row)} onOpen={(anchor) => onOpenMenu(row, anchor)} onIntent={onIntent} />}
          </div>
          <CardFields columns={columns} value={(column) => <CellValue value={column.render(row)} />} />
        </li>
      ))}
    </Box>
  );
}

/** While the first page loads on a phone: cards shaped like the real ones (title, then one line per value). */
export function RegisterCardSkeletons<TRow, TColumn extends string>({
  columns,
  count,
  withMenu,
}: {
  columns: readonly RegisterColumn<TRow, TColumn>[];
  count: number;
  withMenu: boolean;
}) {
  // Plain elements under one style (the cards' own typography and spacing): no MUI component per
  // line in a phone's first render.
  return (
    <Box
      component="ul"
      aria-hidden
      data-testid="register-skeleton"
      sx={[
        cardsSx,
        {
          '& .card-title > p': { flex: 1, m: 0, typography: 'subtitle1' },
          '& .card-title > p > span': { width: '55%' },
          // The '⋮' button's room (IconButton size small).
          '& .skeleton-menu': { width: 34, height: 34 },
          '& dd > span': { width: '60%' },
        },
        skeletonLinesSx,
      ]}
    >
      {Array.from({ length: count }, (_, rowIndex) => (
        <li key={rowIndex}>
          <div className="card-title">
            <p>
              <span data-skeleton-line />
            </p>
            {withMenu && <div className="skeleton-menu" />}
          </div>
          <CardFields columns={columns} value={() => <span data-skeleton-line />} />
        </li>
      ))}
    </Box>
  );
}
