// Apart from api-client.ts, which every page loads first: only the pages offering a download carry it.
import { type ApiOptions, authorizedFetch, toApiError } from './api-client';

/** `attachment; filename="x.pdf"; filename*=UTF-8''x.pdf` → `x.pdf` (the UTF-8 name when given); null without a file name. */
export function attachmentFileName(header: string | null): string | null {
  if (!header) return null;
  const encoded = /filename\*=UTF-8''([^;]+)/i.exec(header)?.[1];
  if (encoded) {
    try {
      return decodeURIComponent(encoded.trim());
    } catch {
      // A malformed encoding: the plain name below.
    }
  }
  return /filename="([^"]+)"/i.exec(header)?.[1] ?? null;
}

/**
 * GETs a file the API makes (a PDF report): the bytes and the file name the server gave. A plain
 * link cannot carry the bearer token, so downloads go through the API client (token, refresh on
 * 401); a refusal is an ApiError with the API's French message.
 */
async function apiDownload(path: string, options: Pick<ApiOptions<unknown>, 'query' | 'signal'> & { accept: string }): Promise<{ blob: Blob; fileName: string | null }> {
  const res = await authorizedFetch(path, options, { accept: `${options.accept}, application/json` });
  if (!res.ok) throw await toApiError(res);
  return { blob: await res.blob(), fileName: attachmentFileName(res.headers.get('content-disposition')) };
}

/** Hands the bytes to the browser as a download under the given file name. */
function saveFile(blob: Blob, fileName: string) {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.rel = 'noopener';
  document.body.append(link);
  link.click();
  link.remove();
  // The download has started from the click; the object URL can go once the event loop turns.
  setTimeout(() => URL.revokeObjectURL(url), 0);
}

/**
 * Downloads a file the API makes and hands it to the browser under the server's file name, or
 * `fallbackName` when the answer names none. Resolves with the server's name (null without one).
 */
export async function downloadFile(path: string, options: Parameters<typeof apiDownload>[1] & { fallbackName: string }): Promise<string | null> {
  const { fallbackName, ...request } = options;
  const { blob, fileName } = await apiDownload(path, request);
  saveFile(blob, fileName ?? fallbackName);
  return fileName;
}
