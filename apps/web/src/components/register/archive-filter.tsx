import Box from '@mui/material/Box';
import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
import type { ArchiveView } from './use-list-search-params';
import { formatCount } from '../../lib/format';

export type ArchiveCounts = {
  /** Rows in activity (the API's `nbInActivity`). */
  active?: number;
  /** Archived rows (the API's `nbOfArchived`). */
  archived?: number;
};

export type ArchiveFilterProps = {
  value: ArchiveView;
  onChange: (value: ArchiveView) => void;
  /** Accessible name of the group, e.g. 'Statut des conducteurs'. */
  label: string;
  /** Shown in the buttons: 'Actifs (38)', 'Archivés (7)'; leave out for a register without counts. */
  counts?: ArchiveCounts;
  /** Adds a 'Tous' button (active and archived rows, `withArchived`). */
  includeAll?: boolean;
};

function withCount(text: string, count: number | undefined) {
  if (count === undefined) return text;
  return (
    <>
      {text}{' '}
      {/* Room for two digits, so the '(0)' shown while the list loads gives way to '(17)' without
          moving the next button. The button lays out as flex: the space above is read, not drawn,
          hence the margin. */}
      <Box component="span" sx={{ display: 'inline-block', ml: 0.5, minWidth: '4ch', textAlign: 'left', fontVariantNumeric: 'tabular-nums' }}>
        ({formatCount(count)})
      </Box>
    </>
  );
}

/** 'Actifs' / 'Archivés' switch of an archivable register (drivers, vehicles, claims). */
export function ArchiveFilter({ value, onChange, label, counts, includeAll = false }: ArchiveFilterProps) {
  const all = counts?.active !== undefined && counts.archived !== undefined ? counts.active + counts.archived : undefined;
  return (
    <ToggleButtonGroup
      exclusive
      size="small"
      color="primary"
      value={value}
      aria-label={label}
      // A click on the selected button gives null: keep the current view.
      onChange={(_, next: ArchiveView | null) => {
        if (next) onChange(next);
      }}
      sx={{
        flexShrink: 0,
        bgcolor: 'background.paper',
        // MUI's default grey of an unselected button is below WCAG AA on our background.
        '& .MuiToggleButton-root': { px: 1.5, whiteSpace: 'nowrap', color: 'text.secondary' },
        '& .MuiToggleButton-root.Mui-selected': { color: 'primary.dark' },
      }}
    >
      <ToggleButton value="active">{withCount('Actifs', counts?.active)}</ToggleButton>
      <ToggleButton value="archived">{withCount('Archivés', counts?.archived)}</ToggleButton>
      {includeAll && <ToggleButton value="all">{withCount('Tous', all)}</ToggleButton>}
    </ToggleButtonGroup>
  );
}
