import { CSRF_HEADER, CSRF_HEADER_VALUE, IDEMPOTENCY_KEY_HEADER } from '@flotte/contract';
import { isErrorEnvelope, refreshSession } from './api-client';
import { ApiError } from './api-error';
import { authStore } from './auth-store';
import { newIdempotencyKey } from './idempotency-key';

// Uploads go through XMLHttpRequest, not fetch: only it reports the upload's progress, which the
// loading snackbar shows as a percent (imports, documents). Same headers, same refresh-and-retry
// on 401 and the same French errors as the API client.

export const UPLOAD_FAILED = "Le fichier n'a pas pu être envoyé. Vérifiez votre connexion puis réessayez.";

export type UploadOptions = {
  /** The multipart field the route reads (`file` for an import, `files` for documents). */
  field: string;
  /** The upload's percent, 0–100, as the bytes leave. */
  onProgress: (percent: number) => void;
  /** The message of a 413 the API did not word itself (a proxy's limit). */
  tooLarge: string;
  signal?: AbortSignal;
};

type Answer = { status: number; body: unknown; requestId: string | null };

function send(path: string, files: readonly File[], { field, onProgress, signal }: UploadOptions, idempotencyKey: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', path);
    xhr.withCredentials = true;
    xhr.setRequestHeader('accept', 'application/json');
    xhr.setRequestHeader(CSRF_HEADER, CSRF_HEADER_VALUE);
    xhr.setRequestHeader(IDEMPOTENCY_KEY_HEADER, idempotencyKey);
    const token = authStore.getState().token;
    if (token) xhr.setRequestHeader('authorization', `Bearer ${token}`);
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable && event.total > 0) onProgress(Math.min(100, Math.round((event.loaded / event.total) * 100)));
    };
    xhr.onload = () => {
      let body: unknown;
      try {
        body = xhr.responseText === '' ? null : JSON.parse(xhr.responseText);
      } catch {
        body = null;
      }
      resolve({ status: xhr.status, body, requestId: xhr.getResponseHeader('x-request-id') });
    };
    xhr.onerror = () => reject(new ApiError(0, UPLOAD_FAILED, 'Network Error'));
    xhr.onabort = () => reject(new DOMException('Envoi annulé', 'AbortError'));
    signal?.addEventListener('abort', () => xhr.abort(), { once: true });
    const form = new FormData();
    for (const file of files) form.append(field, file, file.name);
    xhr.send(form);
  });
}

/**
 * POSTs files as multipart/form-data to an API route and returns its JSON answer; a refusal is an
 * ApiError with the API's French message (its details per file included). Each upload carries a
 * fresh Idempotency-Key, the same when it is sent again after a refresh: the files are stored
 * once (decision 050).
 */
export async function apiUpload<T>(path: string, files: readonly File[], options: UploadOptions): Promise<T> {
  const key = newIdempotencyKey();
  let answer = await send(path, files, options, key);
  if (answer.status === 401 && (await refreshSession())) answer = await send(path, files, options, key);
  if (answer.status >= 200 && answer.status < 300) return answer.body as T;
  if (isErrorEnvelope(answer.body)) {
    const { statusCode, error, message, details = [], requestId } = answer.body;
    throw new ApiError(statusCode, message, error, details, null, requestId ?? answer.requestId);
  }
  throw new ApiError(answer.status, answer.status === 413 ? options.tooLarge : UPLOAD_FAILED, '', [], null, answer.requestId);
}
