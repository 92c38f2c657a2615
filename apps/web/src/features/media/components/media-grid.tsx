import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Skeleton from '@mui/material/Skeleton';
import useMediaQuery from '@mui/material/useMediaQuery';
import type { Theme } from '@mui/material/styles';
import type { MediaItem, MediaPage } from '@flotte/contract';
import { Link as RouterLink } from 'react-router';
import { RegisterEmptyStateView } from '../../../components/register/register-empty-state';
import { RegisterErrorState } from '../../../components/register/register-error-state';
import { RegisterPagination } from '../../../components/register/register-pagination';
import { MEDIA_TEXTS } from '../utils/media-texts';
import { MediaCard } from './media-card';

const GRID = {
  listStyle: 'none',
  m: 0,
  p: { xs: 1, sm: 2 },
  display: 'grid',
  gridTemplateColumns: { xs: 'repeat(2, minmax(0, 1fr))', sm: 'repeat(auto-fill, minmax(190px, 1fr))' },
  gap: { xs: 1, sm: 2 },
} as const;

export type MediaGridProps = {
  page: MediaPage | undefined;
  loading: boolean;
  /** A new page or filter on its way: the previous files stay, dimmed. */
  fetching: boolean;
  error: Error | null;
  onRetry: () => void;
  pageSize: number;
  search: string;
  isFiltered: boolean;
  onClearSearch: () => void;
  onClearFilters: () => void;
  onPageChange: (page: number) => void;
  onOpen: (file: MediaItem) => void;
  onDownload: (file: MediaItem) => void;
};

/** The files as cards, in a grid of as many columns as fit (two on a phone), then the pages. */
export function MediaGrid({ page, loading, fetching, error, onRetry, pageSize, search, isFiltered, onClearSearch, onClearFilters, onPageChange, onOpen, onDownload }: MediaGridProps) {
  const wide = useMediaQuery((theme: Theme) => theme.breakpoints.up('sm'));
  let content;
  if (error && !page) {
    content = <RegisterErrorState error={error} onRetry={onRetry} />;
  } else if (loading || !page) {
    content = (
      <Box role="status" aria-label="Chargement des fichiers…" sx={GRID}>
        {Array.from({ length: 8 }, (_, index) => (
          <Skeleton key={index} variant="rounded" sx={{ width: '100%', height: 'auto', aspectRatio: '4 / 4.2' }} aria-hidden />
        ))}
      </Box>
    );
  } else if (page.data.length === 0) {
    content = (
      <RegisterEmptyStateView
        empty={{
          text: MEDIA_TEXTS.empty,
          action: (
            <Button component={RouterLink} to="/ged" variant="outlined">
              Ouvrir la gestion documentaire
            </Button>
          ),
          filteredText: MEDIA_TEXTS.emptyFiltered,
          filteredAction: <Button onClick={onClearFilters}>{MEDIA_TEXTS.clearFilters}</Button>,
        }}
        search={search}
        isFiltered={isFiltered}
        onClearSearch={onClearSearch}
      />
    );
  } else {
    content = (
      <>
        <Box component="ul" aria-label={MEDIA_TEXTS.grid} aria-busy={fetching} sx={{ ...GRID, opacity: fetching ? 0.6 : 1, transition: 'opacity 150ms' }}>
          {page.data.map((file) => (
            <MediaCard key={file.uuid} file={file} onOpen={onOpen} onDownload={onDownload} />
          ))}
        </Box>
        <RegisterPagination page={page.page} pageSize={pageSize} total={page.total} totalIsCapped={page.totalIsCapped ?? false} showEdges={wide} onPageChange={onPageChange} />
      </>
    );
  }
  return (
    <Paper variant="outlined" sx={{ minWidth: 0 }}>
      {content}
    </Paper>
  );
}
