import MoreVert from '@mui/icons-material/MoreVert';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import Divider from '@mui/material/Divider';
import IconButton from '@mui/material/IconButton';
import LinearProgress from '@mui/material/LinearProgress';
import Link from '@mui/material/Link';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import Skeleton from '@mui/material/Skeleton';
import { useTheme } from '@mui/material/styles';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TablePagination from '@mui/material/TablePagination';
import TableRow from '@mui/material/TableRow';
import TableSortLabel from '@mui/material/TableSortLabel';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import { PAGE_SIZE } from '@flotte/contract';
import { Fragment, useState, type ReactNode } from 'react';
import { nextSort, parseSortBy, type SortBy } from './use-list-search-params';

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

export type RowAction = {
  /** Menu item text, e.g. 'Archiver'. */
  label: string;
  icon?: ReactNode;
  onClick: () => void;
  /** Red and after a divider: for 'Supprimer définitivement' and the like. */
  danger?: boolean;
  disabled?: boolean;
};

export type RegisterEmptyState = {
  /** The register has no row at all: say what to do next, e.g. 'Aucun conducteur pour le moment. Ajoutez votre premier conducteur.' */
  text: string;
  /** The next step, e.g. the 'Ajouter un conducteur' button. */
  action?: ReactNode;
  /** Filters other than the search leave nothing, e.g. 'Aucun conducteur archivé.' */
  filteredText?: string;
  /** With `filteredText`, e.g. a button back to the active rows. */
  filteredAction?: ReactNode;
};

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
  /** Opens the row (e.g. 'Voir'): the key cell and the mobile card title become links. */
  onOpenRow?: (row: TRow) => void;
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
};

const visuallyHidden = {
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

const frenchNumber = new Intl.NumberFormat('fr-FR');
const formatNumber = (value: number) => frenchNumber.format(value);

/** MUI's French label, with 'plus de' before a capped total: '1–10 sur plus de 1 000'. */
function cappedLabel({ from, to, count }: { from: number; to: number; count: number }): string {
  return `${formatNumber(from)}–${formatNumber(to)} sur plus de ${formatNumber(count)}`;
}

function isBlank(value: ReactNode): boolean {
  return value === null || value === undefined || value === '' || value === false;
}

function CellValue({ value }: { value: ReactNode }) {
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

function EmptyState<TRow, TColumn extends string>(props: RegisterTableProps<TRow, TColumn>) {
  const { search, isFiltered, empty, onClearSearch } = props;
  let text: string = empty.text;
  let action: ReactNode = empty.action;
  if (search) {
    text = `Aucun résultat pour « ${search} ». Modifiez votre recherche.`;
    action = onClearSearch ? <Button onClick={onClearSearch}>Effacer la recherche</Button> : null;
  } else if (isFiltered) {
    text = empty.filteredText ?? 'Aucun résultat avec ces filtres. Modifiez vos filtres.';
    action = empty.filteredAction;
  }
  return (
    <Box role="status" sx={{ display: 'grid', justifyItems: 'center', gap: 2, py: 6, px: 2, textAlign: 'center' }}>
      <Typography color="text.secondary" sx={{ maxWidth: 480 }}>
        {text}
      </Typography>
      {action}
    </Box>
  );
}

function ErrorState({ error, onRetry }: { error: Error; onRetry?: () => void }) {
  return (
    <Box sx={{ p: 2 }}>
      <Alert
        severity="error"
        action={
          onRetry ? (
            <Button color="inherit" size="small" onClick={onRetry}>
              Réessayer
            </Button>
          ) : undefined
        }
      >
        {error.message || 'Impossible de charger la liste.'}
      </Alert>
    </Box>
  );
}

type MenuState<TRow> = { anchor: HTMLElement; row: TRow } | null;

function RowActionsButton({ label, onOpen }: { label: string; onOpen: (anchor: HTMLElement) => void }) {
  return (
    <IconButton aria-label={`Actions pour ${label}`} aria-haspopup="menu" onClick={(event) => onOpen(event.currentTarget)} size="small">
      <MoreVert fontSize="small" />
    </IconButton>
  );
}

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

/**
 * A register list paginated by the server: MUI table on desktop, cards from 600 px down, with
 * sortable headers, French pagination (10 rows a page), loading, empty and error states and a
 * menu of actions per row. The page keeps its state in the URL (useListSearchParams) and hands
 * it here.
 */
export function RegisterTable<TRow, TColumn extends string>(props: RegisterTableProps<TRow, TColumn>) {
  const { label, columns, rows, getRowId, getRowLabel, onOpenRow, rowActions, sortBy, onSortChange, page, total, onPageChange } = props;
  const { loading = false, fetching = false, error, totalIsCapped = false } = props;
  const theme = useTheme();
  const mobile = useMediaQuery(theme.breakpoints.down('sm'), { noSsr: true });
  const [menu, setMenu] = useState<MenuState<TRow>>(null);
  const sort = parseSortBy(sortBy);
  const lastPage = Math.max(1, Math.ceil(total / PAGE_SIZE));
  const showRows = !error && !loading && rows.length > 0;
  const menuActions = menu ? (rowActions?.(menu.row).filter((action): action is RowAction => Boolean(action)) ?? []) : [];

  const openLink = (row: TRow, content: ReactNode) =>
    onOpenRow ? (
      <Link
        component="button"
        type="button"
        onClick={() => onOpenRow(row)}
        aria-label={`Voir ${getRowLabel(row)}`}
        sx={{ font: 'inherit', fontWeight: 600, textAlign: 'left', verticalAlign: 'baseline' }}
      >
        {content}
      </Link>
    ) : (
      content
    );

  const body = (() => {
    if (error) return <ErrorState error={error} onRetry={props.onRetry} />;
    if (loading) {
      return (
        <Box sx={{ p: 2, display: 'grid', gap: 1.5 }} aria-hidden>
          {Array.from({ length: 5 }, (_, index) => (
            <Skeleton key={index} variant="rounded" height={mobile ? 96 : 28} />
          ))}
        </Box>
      );
    }
    if (rows.length === 0) return <EmptyState {...props} />;
    return null;
  })();

  const table = (
    <TableContainer>
      <Table aria-label={label} size="medium" sx={{ minWidth: 640 }}>
        <TableHead>
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
            {rowActions && (
              <TableCell align="right" sx={{ width: 64, bgcolor: 'grey.50' }}>
                <Box component="span" sx={visuallyHidden}>
                  Actions
                </Box>
              </TableCell>
            )}
          </TableRow>
        </TableHead>
        {showRows && (
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
                      {index === 0 && !isBlank(value) ? openLink(row, value) : <CellValue value={value} />}
                    </TableCell>
                  );
                })}
                {rowActions && (
                  <TableCell align="right" sx={{ py: 0.5 }}>
                    <RowActionsButton label={getRowLabel(row)} onOpen={(anchor) => setMenu({ anchor, row })} />
                  </TableCell>
                )}
              </TableRow>
            ))}
          </TableBody>
        )}
      </Table>
    </TableContainer>
  );

  const cards = (
    <Box component="ul" aria-label={label} sx={{ listStyle: 'none', m: 0, p: 0 }}>
      {showRows &&
        rows.map((row, rowIndex) => (
          <Box
            component="li"
            key={getRowId(row)}
            sx={{ px: 2, py: 1.5, borderTop: rowIndex === 0 ? 0 : 1, borderColor: 'divider', display: 'grid', gap: 0.75 }}
          >
            <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, minWidth: 0 }}>
              <Typography component="h2" variant="subtitle1" sx={{ fontWeight: 700, flex: 1, minWidth: 0, overflowWrap: 'anywhere' }}>
                {openLink(row, getRowLabel(row))}
              </Typography>
              {rowActions && <RowActionsButton label={getRowLabel(row)} onOpen={(anchor) => setMenu({ anchor, row })} />}
            </Box>
            <Box component="dl" sx={{ m: 0, display: 'grid', gridTemplateColumns: 'max-content 1fr', columnGap: 1.5, rowGap: 0.25 }}>
              {columns
                .filter((column) => !column.hideOnMobile)
                .map((column) => (
                  <Fragment key={column.id}>
                    <Typography component="dt" variant="body2" color="text.secondary">
                      {column.label}
                    </Typography>
                    <Typography component="dd" variant="body2" sx={{ m: 0, minWidth: 0, overflowWrap: 'anywhere' }}>
                      <CellValue value={column.render(row)} />
                    </Typography>
                  </Fragment>
                ))}
            </Box>
          </Box>
        ))}
    </Box>
  );

  const options = sortOptions(columns);

  return (
    <Card aria-busy={loading || fetching} sx={{ position: 'relative', overflow: 'hidden' }}>
      <Box sx={{ height: 4 }}>{fetching && !loading && <LinearProgress aria-label="Mise à jour de la liste" />}</Box>
      {mobile && options.length > 0 && (
        <Box sx={{ px: 2, pt: 1, pb: 1.5, borderBottom: 1, borderColor: 'divider' }}>
          <TextField
            select
            size="small"
            label="Trier par"
            value={sortBy}
            onChange={(event) => onSortChange(event.target.value as SortBy<TColumn>)}
          >
            {options.map((option) => (
              <MenuItem key={option.value} value={option.value}>
                {option.label}
              </MenuItem>
            ))}
          </TextField>
        </Box>
      )}
      <Box sx={{ opacity: fetching && !loading ? 0.6 : 1, transition: 'opacity 120ms' }}>
        {mobile ? showRows && cards : table}
        {body}
      </Box>
      {showRows && (
        <TablePagination
          component="div"
          count={total}
          page={Math.min(page, lastPage) - 1}
          rowsPerPage={PAGE_SIZE}
          rowsPerPageOptions={[]}
          onPageChange={(_, next) => onPageChange(next + 1)}
          // Otherwise the theme's French label (frFR): '1–10 sur 25'.
          labelDisplayedRows={totalIsCapped ? cappedLabel : undefined}
          showFirstButton={!mobile}
          showLastButton={!mobile}
          sx={{ borderTop: 1, borderColor: 'divider' }}
        />
      )}
      <Menu
        anchorEl={menu?.anchor}
        open={menu !== null}
        onClose={() => setMenu(null)}
        anchorOrigin={{ vertical: 'bottom', horizontal: 'right' }}
        transformOrigin={{ vertical: 'top', horizontal: 'right' }}
      >
        {menuActions.flatMap((action, index) => {
          const item = (
            <MenuItem
              key={action.label}
              disabled={action.disabled}
              onClick={() => {
                setMenu(null);
                action.onClick();
              }}
              sx={action.danger ? { color: 'error.main', '& .MuiListItemIcon-root': { color: 'error.main' } } : undefined}
            >
              {action.icon && <ListItemIcon>{action.icon}</ListItemIcon>}
              <ListItemText>{action.label}</ListItemText>
            </MenuItem>
          );
          return action.danger && index > 0 && !menuActions[index - 1]?.danger ? [<Divider key={`${action.label}-divider`} />, item] : [item];
        })}
      </Menu>
    </Card>
  );
}
