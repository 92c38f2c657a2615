import Box from '@mui/material/Box';
import Card from '@mui/material/Card';
import { keyframes, useTheme, type SxProps, type Theme } from '@mui/material/styles';
import useMediaQuery from '@mui/material/useMediaQuery';
import { PAGE_SIZE } from '@flotte/contract';
import { useDeferredValue, useState } from 'react';
import { MobileSortSelect, RegisterCards, RegisterCardSkeletons } from './register-cards';
import type { RegisterColumn } from './register-cells';
import { RegisterDesktopTable } from './register-desktop-table';
import { RegisterEmptyStateView, type RegisterEmptyState } from './register-empty-state';
import { RegisterErrorState } from './register-error-state';
import { RegisterPagination } from './register-pagination';
import { RowActionsMenu, type RowAction } from './row-actions-menu';
import type { SortBy } from './use-list-search-params';

export type RegisterTableProps<TRow, TColumn extends string> = {
  /** Accessible name of the table, e.g. 'Liste des conducteurs'. */
  label: string;
  /** The first column is the key column: first on desktop; hide it on mobile if the card title says it. */
  columns: readonly RegisterColumn<TRow, TColumn>[];
  /** The rows of the current page (at most PAGE_SIZE). */
  rows: readonly TRow[];
  getRowId: (row: TRow) => string;
  /** The row's name for people: card title on mobile, 'Actions pour <name>', 'Voir <name>'. */
  getRowLabel: (row: TRow) => string;
  /**
   * A phone card's visible title when shorter than the row's name (e.g. the claim's plate, its
   * date then a field of the card): the link keeps `getRowLabel` as its name, which contains it.
   */
  getCardTitle?: (row: TRow) => string;
  /** Opens the row (e.g. 'Voir'): the key cell and the mobile card title become links. */
  onOpenRow?: (row: TRow) => void;
  /** A row's link or menu button hovered, focused or touched: fetch the dialogs they open (useRegisterActions' `preload`). */
  onIntent?: () => void;
  /** The row's menu; `false`/`null` entries are skipped, so `isAdmin && {...}` reads well. */
  rowActions?: (row: TRow) => readonly (RowAction | false | null | undefined)[];
  /** Current sort, e.g. `'lastName'` or `'-lastName'`. */
  sortBy: SortBy<TColumn>;
  /** Called with the next sort: a column's first click sorts ascending, the next one descending. */
  onSortChange: (sortBy: SortBy<TColumn>) => void;
  /** 1-based page. */
  page: number;
  /** Total rows for the current search and filters. */
  total: number;
  /** `total` is a floor (the API's COUNT_CAP), not the exact count: the pagination says 'sur plus de 1 000'. */
  totalIsCapped?: boolean;
  /** Called with a 1-based page. */
  onPageChange: (page: number) => void;
  /** No data yet (first load): skeleton rows. */
  loading?: boolean;
  /** Data shown but being refreshed (page, sort or filter change): a thin progress bar. */
  fetching?: boolean;
  /** A failed list query: shown as an inline Alert instead of the rows. */
  error?: Error | null;
  /** With `error`: a 'Réessayer' button. */
  onRetry?: () => void;
  /** The current search, for 'Aucun résultat pour « … »'. */
  search?: string;
  /** True when the search or a filter differs from its default (ListSearchParams.isFiltered). */
  isFiltered?: boolean;
  /** With a search that finds nothing: an 'Effacer la recherche' button. */
  onClearSearch?: () => void;
  empty: RegisterEmptyState;
  /** Styles of the card, e.g. tighter cells for a register with many columns. */
  sx?: SxProps<Theme>;
};

/** What a feature declares of its table; useRegisterList and useRegisterActions give the rest. */
export type RegisterTableDeclaration<TRow, TColumn extends string> = Pick<
  RegisterTableProps<TRow, TColumn>,
  'label' | 'columns' | 'getRowId' | 'getRowLabel' | 'getCardTitle' | 'sx'
>;

const sweep = keyframes`
  from { transform: translateX(-100%); }
  to { transform: translateX(250%); }
`;

/**
 * The thin bar while a list held on screen is asked again: MUI's indeterminate LinearProgress in
 * look, without its module on every register's first load (issue 10).
 */
function FetchBar() {
  return (
    <Box
      role="progressbar"
      aria-label="Mise à jour de la liste"
      sx={{
        position: 'relative',
        height: 4,
        overflow: 'hidden',
        bgcolor: 'primary.light',
        '&::before': {
          content: '""',
          position: 'absolute',
          inset: 0,
          width: '40%',
          bgcolor: 'primary.main',
          animation: `${sweep} 1.4s ease-in-out infinite`,
          '@media (prefers-reduced-motion: reduce)': { animationDuration: '4s' },
        },
      }}
    />
  );
}

type MenuState<TRow> = { anchor: HTMLElement; row: TRow } | null;

/**
 * A register list paginated by the server: MUI table on desktop, cards from 600 px down, with
 * sortable headers, French pagination (10 rows a page), loading, empty and error states and a
 * menu of actions per row. useRegisterList gives its list props (`list.table`).
 */
export function RegisterTable<TRow, TColumn extends string>(props: RegisterTableProps<TRow, TColumn>) {
  const { label, columns, rows, getRowId, getRowLabel, onOpenRow, onIntent, rowActions, sortBy, onSortChange, page, total, onPageChange } = props;
  const { fetching = false, error, totalIsCapped = false, sx } = props;
  // The rows are drawn in a render of their own, after the first one: the page's first paint (its
  // title, its summary line, the toolbar and skeleton rows of the same height) does not wait for
  // ten rows of cells, and on a phone's slow CPU the work comes in two shorter tasks (issue 10).
  const drawn = useDeferredValue(props.loading !== true, false);
  const loading = props.loading === true || !drawn;
  const theme = useTheme();
  const mobile = useMediaQuery(theme.breakpoints.down('sm'), { noSsr: true });
  const [menu, setMenu] = useState<MenuState<TRow>>(null);
  const lastPage = Math.max(1, Math.ceil(total / PAGE_SIZE));
  const showRows = !error && !loading && rows.length > 0;
  const skeleton = !error && loading;
  const menuActions = menu ? (rowActions?.(menu.row).filter((action): action is RowAction => Boolean(action)) ?? []) : [];
  const list = {
    label,
    columns,
    rows: showRows ? rows : [],
    getRowId,
    getRowLabel,
    onOpenRow,
    onIntent,
    onOpenMenu: rowActions ? (row: TRow, anchor: HTMLElement) => setMenu({ anchor, row }) : undefined,
  };

  const state = (() => {
    if (error) return <RegisterErrorState error={error} onRetry={props.onRetry} />;
    // The table (or the cards) draws its own skeleton rows, of a real row's height.
    if (loading) return null;
    if (rows.length === 0) {
      return <RegisterEmptyStateView empty={props.empty} search={props.search} isFiltered={props.isFiltered} onClearSearch={props.onClearSearch} />;
    }
    return null;
  })();

  return (
    <Card aria-busy={loading || fetching} sx={[{ position: 'relative', overflow: 'hidden', minWidth: 0 }, ...(sx === undefined ? [] : Array.isArray(sx) ? sx : [sx])]}>
      <Box sx={{ height: 4 }}>{fetching && !loading && <FetchBar />}</Box>
      {mobile && <MobileSortSelect columns={columns} sortBy={sortBy} onSortChange={onSortChange} />}
      <Box sx={{ opacity: fetching && !loading ? 0.6 : 1, transition: 'opacity 120ms' }}>
        {mobile ? (
          showRows && <RegisterCards {...list} getCardTitle={props.getCardTitle} />
        ) : (
          <RegisterDesktopTable {...list} sortBy={sortBy} onSortChange={onSortChange} skeletonRows={skeleton ? PAGE_SIZE : 0} />
        )}
        {mobile && skeleton && <RegisterCardSkeletons columns={columns} count={PAGE_SIZE} withMenu={Boolean(rowActions)} />}
        {state}
      </Box>
      {/* The pagination's room while the first page loads. */}
      {skeleton && <Box aria-hidden sx={{ height: 52, borderTop: 1, borderColor: 'divider' }} />}
      {showRows && (
        <RegisterPagination
          page={Math.min(page, lastPage)}
          pageSize={PAGE_SIZE}
          total={total}
          totalIsCapped={totalIsCapped}
          showEdges={!mobile}
          onPageChange={onPageChange}
        />
      )}
      <RowActionsMenu anchor={menu?.anchor ?? null} actions={menuActions} onClose={() => setMenu(null)} />
    </Card>
  );
}
