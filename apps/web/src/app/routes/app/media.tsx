import type { MediaEntityFilter, MediaItem, MediaKind } from '@flotte/contract';
import { useQuery } from '@tanstack/react-query';
import { useCallback, useEffect, useState } from 'react';
import type { PreviewedDocument } from '../../../components/documents/document-preview-dialog';
import { documentName, downloadDocument } from '../../../components/documents/documents-api';
import { lazyComponent } from '../../../components/lazy-component';
import { snackbar } from '../../../components/snackbar/snackbar';
import { OpenedOnce } from '../../../components/register/lazy-dialog';
import { RegisterScreen, RegisterToolbar } from '../../../components/register/register-layout';
import { SearchField } from '../../../components/register/search-field';
import { useListSearchParams } from '../../../components/register/use-list-search-params';
import { MEDIA_PAGE_SIZE, mediaPageQuery } from '../../../features/media/api/media-api';
import { MediaFilters } from '../../../features/media/components/media-filters';
import { MediaGrid } from '../../../features/media/components/media-grid';
import { MediaPageHeader } from '../../../features/media/components/media-page-header';
import { ENTITY_CHOICES, KIND_CHOICES, MEDIA_TEXTS as TEXTS } from '../../../features/media/utils/media-texts';
import { ApiError } from '../../../lib/api-error';

// The preview (an image or a PDF through a blob URL) comes with the first click on a file.
const DocumentPreviewDialog = lazyComponent(() => import('../../../components/documents/document-preview-dialog').then((module) => module.DocumentPreviewDialog));

const SORT = ['createdAt'] as const;
const FILTERS = { kind: '', entity: '' };

/** The URL's value when it is one of the choices (a link from elsewhere may hold anything). */
const oneOf = <T extends string>(choices: readonly { value: T }[], value: string): T | undefined => choices.find((choice) => choice.value === value)?.value;

/**
 * /media (issue 14): the organization's media library, every file of the GED whatever its folder
 * or record, newest first, as a grid; filters, search and page in the URL.
 */
export default function MediaRoute() {
  const params = useListSearchParams({ sortColumns: SORT, defaultSort: '-createdAt', filters: FILTERS });
  const kind = oneOf<MediaKind>(KIND_CHOICES, params.filters.kind);
  const entity = oneOf<MediaEntityFilter>(ENTITY_CHOICES, params.filters.entity);
  const list = useQuery(mediaPageQuery({ kind, entity, search: params.search, page: params.page }));
  const [previewed, setPreviewed] = useState<PreviewedDocument | null>(null);
  const open = useCallback((file: MediaItem) => setPreviewed({ uuid: file.uuid, name: documentName(file), type: file.type }), []);

  const { setPage } = params;
  const lastPage = list.data?.nbOfPages ?? 0;
  useEffect(() => {
    // A page past the last (files deleted since, an old link): back to the last one.
    if (!list.isPlaceholderData && lastPage > 0 && params.page > lastPage) setPage(lastPage, { replace: true });
  }, [list.isPlaceholderData, lastPage, params.page, setPage]);

  const download = useCallback((file: MediaItem) => {
    downloadDocument({ uuid: file.uuid, name: documentName(file) }).catch((error: unknown) =>
      snackbar.show({ type: 'error', title: 'Téléchargement impossible', description: error instanceof ApiError ? error.message : undefined }),
    );
  }, []);

  return (
    <RegisterScreen>
      <MediaPageHeader total={list.data?.total} />
      <RegisterToolbar>
        <SearchField value={params.search} onChange={params.setSearch} label={TEXTS.search} placeholder={TEXTS.searchPlaceholder} />
        <MediaFilters kind={kind} entity={entity} onKind={(value) => params.setFilter('kind', value ?? '')} onEntity={(value) => params.setFilter('entity', value ?? '')} />
      </RegisterToolbar>
      <MediaGrid
        page={list.data}
        loading={list.isPending}
        fetching={list.isFetching}
        error={list.error}
        onRetry={() => void list.refetch()}
        pageSize={MEDIA_PAGE_SIZE}
        search={params.search}
        isFiltered={params.isFiltered}
        onClearSearch={() => params.setSearch('')}
        onClearFilters={params.clearFilters}
        onPageChange={(page) => params.setPage(page)}
        onOpen={open}
        onDownload={download}
      />
      <OpenedOnce open={previewed !== null} onClose={() => setPreviewed(null)}>
        <DocumentPreviewDialog document={previewed} onClose={() => setPreviewed(null)} />
      </OpenedOnce>
    </RegisterScreen>
  );
}
