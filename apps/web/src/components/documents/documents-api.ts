import {
  AncestorsSchema,
  DocumentPageSchema,
  DocumentSchema,
  UploadResultSchema,
  type CreateFolderBody,
  type DocumentItem,
  type DocumentPage,
  type UpdateDocumentBody,
} from '@flotte/contract';
import { queryOptions, type QueryClient } from '@tanstack/react-query';
import { api, authorizedFetch, toApiError } from '../../lib/api-client';
import { downloadFile } from '../../lib/api-download';
import { apiUpload } from '../../lib/api-upload';
import { invalidateAfterWrite, queryKeys } from '../../lib/query-keys';

// The document management's calls (issue 14, decision 030), shared by the GED (/ged), the media
// library (/media) and the attachments of drivers, vehicles and claims: a feature does not import
// another, so they live with the shared components. Answers are typed by the contract; their
// schemas are checked in development and tests only (decision 015).

const dev = import.meta.env.DEV;

/** The registers whose records hold files, as their API paths spell them. */
export type AttachableEntity = 'driver' | 'vehicule' | 'sinister';

/** Where an upload goes: a folder of the GED (null: 'Mes documents'), or a record. */
export type UploadTarget = { parent: string | null } | { entity: AttachableEntity; uuid: string };

export const documentKeys = queryKeys.documents;

/** Default page size of the GED's lists. */
export const DOCUMENTS_PAGE_SIZE = 25;

/** A folder's or a file's name. */
export function documentName(doc: Pick<DocumentItem, 'folderName' | 'media'>): string {
  return doc.folderName ?? doc.media?.name ?? '';
}

/** GET /api/document/ged/paginated: a folder's content (the root without parent), folders first; a search covers the whole tree. */
export function gedPageQuery({ parent, search, page, limit = DOCUMENTS_PAGE_SIZE }: { parent?: string; search?: string; page: number; limit?: number }) {
  const query = { parent: search ? undefined : parent, search: search || undefined, page, limit };
  return queryOptions({
    queryKey: documentKeys.page(query),
    queryFn: ({ signal }) => api<DocumentPage>('/api/document/ged/paginated', { query, signal, schema: dev ? DocumentPageSchema : undefined }),
  });
}

/** GET /api/document/ancestors/{parent}: the folders from the root down to `parent` (included); none at the root. */
export function ancestorsQuery(parent: string | undefined) {
  return queryOptions({
    queryKey: documentKeys.ancestors(parent ?? ''),
    queryFn: ({ signal }) => (parent ? api(`/api/document/ancestors/${parent}`, { signal, schema: dev ? AncestorsSchema : undefined }) : Promise.resolve([])),
    staleTime: 60_000,
  });
}

/** GET /api/document/trash: what was deleted, newest first (purged after 30 days). */
export function trashQuery({ page, limit = DOCUMENTS_PAGE_SIZE }: { page: number; limit?: number }) {
  const query = { page, limit };
  return queryOptions({
    queryKey: documentKeys.trash(query),
    queryFn: ({ signal }) => api<DocumentPage>('/api/document/trash', { query, signal, schema: dev ? DocumentPageSchema : undefined }),
  });
}

/** GET /api/document/expiring: live documents expired or expiring within `days` (30 by default), soonest first. */
export function expiringQuery({ page, limit = DOCUMENTS_PAGE_SIZE, days }: { page: number; limit?: number; days?: number }) {
  const query = { page, limit, days };
  return queryOptions({
    queryKey: documentKeys.expiring(query),
    queryFn: ({ signal }) => api<DocumentPage>('/api/document/expiring', { query, signal, schema: dev ? DocumentPageSchema : undefined }),
  });
}

/** GET /api/{driver|vehicule|sinister}/{uuid}/documents: a record's files, by name. */
export function attachmentsQuery(entity: AttachableEntity, uuid: string) {
  return queryOptions({
    queryKey: documentKeys.attachments(entity, uuid),
    queryFn: ({ signal }) => api(`/api/${entity}/${uuid}/documents`, { signal, schema: dev ? UploadResultSchema : undefined }),
    select: (answer: { data: DocumentItem[] }) => answer.data,
  });
}

const itemSchema = dev ? DocumentSchema : undefined;

export const createFolder = (body: CreateFolderBody) => api<DocumentItem>('/api/document/folder', { method: 'POST', body, schema: itemSchema });

/** Rename (name), move (parent; null: the root), expiry date (expiresOn; null: none). */
export const updateDocument = (uuid: string, body: UpdateDocumentBody) => api<DocumentItem>(`/api/document/${uuid}`, { method: 'PATCH', body, schema: itemSchema });

/** To the trash; a folder that is not empty only with `recursive` (the API answers 409 otherwise). */
export const deleteDocument = (uuid: string, { recursive = false }: { recursive?: boolean } = {}) =>
  api(`/api/document/${uuid}`, { method: 'DELETE', query: recursive ? { recursive: true } : undefined });

/** Back from the trash, with everything deleted with it. */
export const restoreDocument = (uuid: string) => api<DocumentItem>(`/api/document/${uuid}/restore`, { method: 'POST', schema: itemSchema });

/** For good, from the trash (administrators). */
export const deleteDocumentPermanently = (uuid: string) => api(`/api/document/${uuid}/permanent`, { method: 'DELETE' });

/** Takes a file off a record: it goes to the GED's trash (restorable). */
export const detachDocument = (entity: AttachableEntity, uuid: string, documentUuid: string) =>
  api(`/api/${entity}/${uuid}/documents/${documentUuid}`, { method: 'DELETE' });

/** The limit a proxy may put before the API's own (which words its 413 itself). */
const TOO_LARGE = 'Les fichiers dépassent la taille autorisée.';

/** Sends files to a folder or a record, with the upload's percent; all or nothing (decision 030). */
export async function uploadDocuments(target: UploadTarget, files: readonly File[], onProgress: (percent: number) => void, signal?: AbortSignal): Promise<DocumentItem[]> {
  const path = 'entity' in target ? `/api/${target.entity}/${target.uuid}/documents` : `/api/document/upload${target.parent ? `?parent=${target.parent}` : ''}`;
  const answer = await apiUpload<{ data: DocumentItem[] }>(path, files, { field: 'files', onProgress, tooLarge: TOO_LARGE, signal });
  return answer.data;
}

/** Saves a file under its name (the bearer cannot ride on a plain link). */
export async function downloadDocument(doc: { uuid: string; name: string }): Promise<void> {
  await downloadFile(`/api/document/${doc.uuid}/download`, { accept: '*/*', fallbackName: doc.name });
}

/** The bytes of an image's or a PDF's preview (to show through a blob URL). */
export async function fetchPreview(uuid: string, signal?: AbortSignal): Promise<Blob> {
  const res = await authorizedFetch(`/api/document/${uuid}/preview`, { signal }, { accept: 'image/*, application/pdf, application/json' });
  if (!res.ok) throw await toApiError(res);
  return res.blob();
}

/**
 * After any write to documents: every document list, and the three registers, whose records list
 * their files (`documents`) — a rename in the GED changes a driver's list of files too.
 */
export function invalidateDocuments(queryClient: QueryClient): void {
  void queryClient.invalidateQueries({ queryKey: documentKeys.all });
  invalidateAfterWrite(queryClient, 'drivers');
  invalidateAfterWrite(queryClient, 'vehicules');
  invalidateAfterWrite(queryClient, 'sinisters');
}
