import { MediaPageSchema, type MediaEntityFilter, type MediaKind, type MediaPage } from '@flotte/contract';
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { documentKeys } from '../../../components/documents/documents-api';
import { api, authorizedFetch, toApiError } from '../../../lib/api-client';

// The media library's calls (/media, issue 14): its page of files and its images' thumbnails.

/** Files per page: a grid of 4, 3 or 2 columns fills whole rows. */
export const MEDIA_PAGE_SIZE = 24;

export type MediaListQuery = { kind?: MediaKind; entity?: MediaEntityFilter; search?: string; page: number; limit?: number };

/**
 * GET /api/document/media: every live file, newest first. Under the documents' key, so that any
 * write to documents (an upload, a rename, the trash) refreshes it too (invalidateDocuments).
 */
export function mediaPageQuery({ kind, entity, search, page, limit = MEDIA_PAGE_SIZE }: MediaListQuery) {
  const query = { kind, entity, search: search || undefined, page, limit };
  return queryOptions({
    queryKey: [...documentKeys.all, 'media', query] as const,
    queryFn: ({ signal }) => api<MediaPage>('/api/document/media', { query, signal, schema: import.meta.env.DEV ? MediaPageSchema : undefined }),
    placeholderData: keepPreviousData,
  });
}

/**
 * An image's thumbnail (a small WebP), fetched with the session. `private, no-store`: an
 * organization's photos are never written to the browser's disk cache (issue 20).
 */
export async function fetchThumbnail(uuid: string, signal?: AbortSignal): Promise<Blob> {
  const res = await authorizedFetch(`/api/document/${uuid}/thumbnail`, { signal }, { accept: 'image/webp, application/json' });
  if (!res.ok) throw await toApiError(res);
  return res.blob();
}
