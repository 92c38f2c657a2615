// Apart from api-client.ts, which every page loads first: only the pages offering a download carry it.
import { type ApiOptions, authorizedFetch, toApiError } from './api-client';

/** `attachment; filename="x.pdf"` → `x.pdf`; null without a file name. */
export function attachmentFileName(header: string | null): string | null {
  const match = header ? /filename="([^"]+)"/i.exec(header) : null;
  return match?.[1] ?? null;
}

/**
 * GETs a file the API makes (a PDF report): the bytes and the file name the server gave. A plain
 * link cannot carry the bearer token, so downloads go through the API client (token, refresh on
 * 401); a refusal is an ApiError with the API's French message.
 */
export async function apiDownload(path: string, options: Pick<ApiOptions<unknown>, 'query' | 'signal'> & { accept: string }): Promise<{ blob: Blob; fileName: string | null }> {
  const res = await authorizedFetch(path, options, { accept: `${options.accept}, application/json` });
  if (!res.ok) throw await toApiError(res);
  return { blob: await res.blob(), fileName: attachmentFileName(res.headers.get('content-disposition')) };
}
