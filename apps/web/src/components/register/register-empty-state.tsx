import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';
import { AddButton } from './add-button';
import type { RegisterTexts } from './register-texts';
import type { ArchiveView } from './use-list-search-params';

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

export type RegisterEmptyStateProps = {
  empty: RegisterEmptyState;
  /** The current search: 'Aucun résultat pour « … »'. */
  search?: string;
  /** The search or a filter differs from its default. */
  isFiltered?: boolean;
  /** With a search that finds nothing: an 'Effacer la recherche' button. */
  onClearSearch?: () => void;
};

/** What an empty list says: nothing yet, nothing for this search, or nothing with these filters. */
export function RegisterEmptyStateView({ empty, search, isFiltered, onClearSearch }: RegisterEmptyStateProps) {
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
      <Typography color="textSecondary" sx={{ maxWidth: 480 }}>
        {text}
      </Typography>
      {action}
    </Box>
  );
}

/**
 * The empty states of an archivable register: nothing yet (add the first one), only archived
 * records, or nothing archived (back to the active ones).
 */
export function archiveEmptyState(
  texts: Pick<RegisterTexts, 'add' | 'emptyFirst' | 'emptyActive' | 'noneArchived' | 'seeActive'>,
  list: { counts: { active: number; archived: number }; archive: ArchiveView; setArchive: (archive: ArchiveView) => void },
  onAdd: () => void,
  /** The add button hovered, focused or touched: fetch the form (useRegisterActions' `preload`). */
  onAddIntent?: () => void,
): RegisterEmptyState {
  const archivedView = list.archive === 'archived';
  return {
    text: list.counts.active + list.counts.archived === 0 ? texts.emptyFirst : texts.emptyActive,
    action: <AddButton label={texts.add} onClick={onAdd} onIntent={onAddIntent} />,
    filteredText: archivedView ? texts.noneArchived : undefined,
    filteredAction: archivedView ? <Button onClick={() => list.setArchive('active')}>{texts.seeActive}</Button> : undefined,
  };
}
