import Button from '@mui/material/Button';
import { configure, getDefaultNormalizer, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '../../test/render';
import type { RegisterColumn } from './register-cells';
import { RegisterTable, type RegisterTableProps } from './register-table';
import { onAPhone } from '../../test/media';

// Role queries are slow in jsdom, more so when every test file runs at once.
configure({ asyncUtilTimeout: 4000 });

type Row = { id: string; name: string; city: string | null };
type Column = 'name' | 'city';

const COLUMNS: RegisterColumn<Row, Column>[] = [
  { id: 'name', label: 'Nom', sortKey: 'name', render: (row) => row.name },
  { id: 'city', label: 'Ville', sortKey: 'city', render: (row) => row.city },
  { id: 'note', label: 'Note', render: () => 'fixe' },
];

const ROWS: Row[] = [
  { id: '1', name: 'Élodie Écuyer', city: 'Lyon' },
  { id: '2', name: 'Hugo Bertrand', city: null },
];

// The default normalizer turns the French thousands separator (U+202F) into a plain space: keep it.
const exactSpaces = { normalizer: getDefaultNormalizer({ collapseWhitespace: false }) };

function renderTable(props: Partial<RegisterTableProps<Row, Column>> = {}) {
  const handlers = { onSortChange: vi.fn(), onPageChange: vi.fn(), onOpenRow: vi.fn() };
  renderWithProviders(
    <RegisterTable<Row, Column>
      label="Liste des essais"
      columns={COLUMNS}
      rows={ROWS}
      getRowId={(row) => row.id}
      getRowLabel={(row) => row.name}
      sortBy="name"
      page={1}
      total={ROWS.length}
      empty={{ text: 'Aucun essai pour le moment. Ajoutez votre premier essai.', action: <Button>Ajouter un essai</Button> }}
      {...handlers}
      {...props}
    />,
  );
  return handlers;
}

describe('<RegisterTable />', () => {
  it('shows the rows, the key column first, and a readable dash for a missing value', () => {
    renderTable();
    const table = screen.getByRole('table', { name: 'Liste des essais' });
    const rows = within(table).getAllByRole('row');
    expect(within(rows[0]!).getAllByRole('columnheader').map((cell) => cell.textContent)).toEqual(['Nom', 'Ville', 'Note']);
    expect(within(rows[1]!).getByRole('rowheader')).toHaveTextContent('Élodie Écuyer');
    expect(within(rows[2]!).getByText('Non renseigné')).toBeInTheDocument();
  });

  it('sorts ascending on a first click, descending on the next, and marks the sorted column', async () => {
    const ui = userEvent.setup();
    const { onSortChange } = renderTable({ sortBy: 'name' });
    const nameHeader = screen.getByRole('columnheader', { name: /Nom/ });
    expect(nameHeader).toHaveAttribute('aria-sort', 'ascending');
    expect(screen.getByRole('columnheader', { name: /Ville/ })).not.toHaveAttribute('aria-sort');
    // The column without a sort key has no button.
    expect(within(screen.getByRole('columnheader', { name: 'Note' })).queryByRole('button')).not.toBeInTheDocument();

    await ui.click(within(nameHeader).getByRole('button', { name: /Nom/ }));
    expect(onSortChange).toHaveBeenLastCalledWith('-name');
    await ui.click(screen.getByRole('button', { name: /Ville/ }));
    expect(onSortChange).toHaveBeenLastCalledWith('city');
  });

  it('flips a descending sort back to ascending', async () => {
    const ui = userEvent.setup();
    const { onSortChange } = renderTable({ sortBy: '-name' });
    expect(screen.getByRole('columnheader', { name: /Nom/ })).toHaveAttribute('aria-sort', 'descending');
    await ui.click(screen.getByRole('button', { name: /Nom/ }));
    expect(onSortChange).toHaveBeenLastCalledWith('name');
  });

  it('paginates by 10 in French, with 1-based pages', async () => {
    const ui = userEvent.setup();
    const { onPageChange } = renderTable({ total: 25, page: 1 });
    expect(screen.getByText('1–10 sur 25')).toBeInTheDocument();
    expect(screen.queryByText(/Lignes par page/)).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Aller à la page précédente' })).toBeDisabled();
    await ui.click(screen.getByRole('button', { name: 'Aller à la page suivante' }));
    expect(onPageChange).toHaveBeenLastCalledWith(2);
    await ui.click(screen.getByRole('button', { name: 'Aller à la dernière page' }));
    expect(onPageChange).toHaveBeenLastCalledWith(3);
  });

  it('shows the last page range', () => {
    renderTable({ total: 25, page: 3 });
    expect(screen.getByText('21–25 sur 25')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Aller à la page suivante' })).toBeDisabled();
  });

  it('formats an exact total the French way, without "plus de"', () => {
    renderTable({ total: 1000, page: 1, totalIsCapped: false });
    // Intl fr-FR (as MUI's frFR label): a narrow no-break space between thousands.
    expect(screen.getByText('1–10 sur 1\u202f000', exactSpaces)).toBeInTheDocument();
    expect(screen.queryByText(/plus de/)).not.toBeInTheDocument();
  });

  it('says "plus de" when the API capped the total, and still reaches the last page', async () => {
    const ui = userEvent.setup();
    const { onPageChange } = renderTable({ total: 1000, page: 1, totalIsCapped: true });
    expect(screen.getByText('1–10 sur plus de 1\u202f000', exactSpaces)).toBeInTheDocument();
    expect(screen.queryByText('1–10 sur 1\u202f000', exactSpaces)).not.toBeInTheDocument();
    await ui.click(screen.getByRole('button', { name: 'Aller à la dernière page' }));
    expect(onPageChange).toHaveBeenLastCalledWith(100);
  });

  it('shows the last capped page range', () => {
    renderTable({ total: 1000, page: 100, totalIsCapped: true });
    expect(screen.getByText('991–1\u202f000 sur plus de 1\u202f000', exactSpaces)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Aller à la page suivante' })).toBeDisabled();
  });

  it('says what to do next when the register is empty', () => {
    renderTable({ rows: [], total: 0 });
    expect(screen.getByRole('status')).toHaveTextContent('Aucun essai pour le moment. Ajoutez votre premier essai.');
    expect(screen.getByRole('button', { name: 'Ajouter un essai' })).toBeInTheDocument();
    expect(screen.queryByText(/sur 0/)).not.toBeInTheDocument();
  });

  it('tells a search that finds nothing apart, and offers to clear it', async () => {
    const ui = userEvent.setup();
    const onClearSearch = vi.fn();
    renderTable({ rows: [], total: 0, search: 'zorro', isFiltered: true, onClearSearch });
    expect(screen.getByText('Aucun résultat pour « zorro ». Modifiez votre recherche.')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Ajouter un essai' })).not.toBeInTheDocument();
    await ui.click(screen.getByRole('button', { name: 'Effacer la recherche' }));
    expect(onClearSearch).toHaveBeenCalled();
  });

  it('uses the filtered text when only a filter empties the list', () => {
    renderTable({ rows: [], total: 0, isFiltered: true, empty: { text: 'Vide', filteredText: 'Aucun essai archivé.' } });
    expect(screen.getByText('Aucun essai archivé.')).toBeInTheDocument();
    expect(screen.queryByText('Vide')).not.toBeInTheDocument();
  });

  it('shows skeletons while loading and an inline error with a retry', async () => {
    const ui = userEvent.setup();
    renderTable({ rows: [], total: 0, loading: true });
    expect(screen.queryByRole('status')).not.toBeInTheDocument();
    expect(screen.queryAllByRole('row')).toHaveLength(1);

    const onRetry = vi.fn();
    renderTable({ rows: [], total: 0, error: new Error('Service indisponible'), onRetry });
    expect(screen.getByRole('alert')).toHaveTextContent('Service indisponible');
    await ui.click(screen.getByRole('button', { name: 'Réessayer' }));
    expect(onRetry).toHaveBeenCalled();
  });

  it('keeps the room of a full page while the first one loads: skeleton rows shaped like real rows, hidden from assistive tech', () => {
    renderTable({ rows: [], total: 0, loading: true, rowActions: () => [] });
    const skeleton = screen.getByTestId('register-skeleton');
    expect(skeleton).toHaveAttribute('aria-hidden', 'true');
    // Not rows of the table (whose rows are the real ones only).
    expect(skeleton.closest('table')).toBeNull();
    const rows = [...skeleton.children];
    expect(rows).toHaveLength(10);
    // One line of text per column, in a cell's padding: a real row's height.
    for (const row of rows) expect(row.querySelectorAll('[data-skeleton-line]')).toHaveLength(COLUMNS.length);
  });

  it('opens a row from its key cell and offers its actions in a menu named after it', async () => {
    const ui = userEvent.setup();
    const view = vi.fn();
    const remove = vi.fn();
    const { onOpenRow } = renderTable({
      rowActions: (row) => [
        { label: 'Voir', onClick: () => view(row.id) },
        row.city === null && { label: 'Compléter', onClick: () => undefined },
        { label: 'Supprimer définitivement', onClick: () => remove(row.id), danger: true },
      ],
    });
    await ui.click(screen.getByRole('button', { name: 'Voir Élodie Écuyer' }));
    expect(onOpenRow).toHaveBeenCalledWith(ROWS[0]);

    await ui.click(screen.getByRole('button', { name: 'Actions pour Élodie Écuyer' }));
    const menu = await screen.findByRole('menu');
    expect(within(menu).getAllByRole('menuitem').map((item) => item.textContent)).toEqual(['Voir', 'Supprimer définitivement']);
    await ui.click(within(menu).getByRole('menuitem', { name: 'Supprimer définitivement' }));
    expect(remove).toHaveBeenCalledWith('1');

    await ui.click(screen.getByRole('button', { name: 'Actions pour Hugo Bertrand' }));
    expect(await screen.findByRole('menuitem', { name: 'Compléter' })).toBeInTheDocument();
  });
});

// vitest's unstubGlobals puts jsdom back (no matchMedia: "desktop") after each test.
describe('<RegisterTable /> on a phone', () => {

  it('lists cards titled by the row name, with a sort menu', async () => {
    onAPhone();
    const ui = userEvent.setup();
    const { onSortChange } = renderTable({ rowActions: () => [{ label: 'Voir', onClick: () => undefined }] });
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
    const cards = within(screen.getByRole('list', { name: 'Liste des essais' })).getAllByRole('listitem');
    expect(cards).toHaveLength(2);
    expect(within(cards[0]!).getByRole('heading', { name: 'Élodie Écuyer' })).toBeInTheDocument();
    expect(within(cards[0]!).getByRole('button', { name: 'Voir Élodie Écuyer' })).toBeInTheDocument();
    expect(within(cards[0]!).getByText('Ville')).toBeInTheDocument();
    expect(within(cards[0]!).getByRole('button', { name: 'Actions pour Élodie Écuyer' })).toBeInTheDocument();

    await ui.selectOptions(screen.getByRole('combobox', { name: 'Trier par' }), 'Ville (décroissant)');
    expect(onSortChange).toHaveBeenLastCalledWith('-city');
  });

  it('titles a card by getCardTitle when given, the link keeping the row’s whole name', () => {
    onAPhone();
    renderTable({ getCardTitle: (row) => row.name.split(' ')[0]! });
    const cards = within(screen.getByRole('list', { name: 'Liste des essais' })).getAllByRole('listitem');
    const heading = within(cards[0]!).getByRole('heading', { level: 2 });
    expect(heading.textContent).toBe('Élodie');
    expect(within(heading).getByRole('button', { name: 'Voir Élodie Écuyer' })).toBeInTheDocument();
  });
});
