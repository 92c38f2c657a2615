import { CSRF_HEADER, CSRF_HEADER_VALUE, ErrorSchema, RefreshResponseSchema } from '@flotte/contract';
import type { z } from 'zod';
import { ApiError } from './api-error';
import { authStore } from './auth-store';
import { notifySessionExpired } from './session-expiry';

type QueryValue = string | number | boolean | null | undefined;

export type ApiOptions<T> = {
  method?: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
  body?: unknown;
  query?: Record<string, QueryValue>;
  /** Contract schema the response is parsed with; without one the body is ignored. */
  schema?: z.ZodType<T>;
  signal?: AbortSignal;
  /** Auth calls (login, logout) answer 401 themselves: no refresh-and-retry for them. */
  retryOnUnauthorized?: boolean;
};

const NETWORK_ERROR = 'Impossible de joindre le serveur. Vérifiez votre connexion puis réessayez.';
const UNEXPECTED_RESPONSE = 'Réponse inattendue du serveur. Veuillez réessayer.';
/** A 503 without the API's envelope (a proxy in front of it, a restart). */
const UNAVAILABLE = 'Le service est momentanément indisponible. Réessayez dans quelques instants.';

/** `Retry-After` in seconds, whether given as seconds or as an HTTP date; null when absent or unreadable. */
export function retryAfterSeconds(header: string | null): number | null {
  if (header === null || header.trim() === '') return null;
  if (/^\d+$/.test(header.trim())) return Number(header.trim());
  const date = Date.parse(header);
  return Number.isNaN(date) ? null : Math.max(0, Math.ceil((date - Date.now()) / 1000));
}

function buildUrl(path: string, query?: Record<string, QueryValue>): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query ?? {})) {
    if (value !== undefined && value !== null && value !== '') params.set(key, String(value));
  }
  const search = params.toString();
  return search ? `${path}?${search}` : path;
}

async function send(url: string, init: RequestInit): Promise<Response> {
  try {
    return await fetch(url, init);
  } catch (err) {
    if (err instanceof DOMException && err.name === 'AbortError') throw err;
    throw new ApiError(0, NETWORK_ERROR, 'Network Error');
  }
}

async function toApiError(res: Response): Promise<ApiError> {
  const body: unknown = await res.json().catch(() => null);
  const envelope = ErrorSchema.safeParse(body);
  const retryAfter = retryAfterSeconds(res.headers.get('retry-after'));
  if (envelope.success) {
    const { statusCode, error, message, details } = envelope.data;
    return new ApiError(statusCode, message, error, details ?? [], retryAfter);
  }
  const message = res.status === 503 ? UNAVAILABLE : `Une erreur est survenue (code ${res.status}). Veuillez réessayer.`;
  return new ApiError(res.status, message, res.statusText, [], retryAfter);
}

let refreshing: Promise<boolean> | null = null;

async function requestNewToken(): Promise<boolean> {
  try {
    const res = await fetch('/api/auth/refresh-token', {
      method: 'POST',
      credentials: 'include',
      headers: { accept: 'application/json', [CSRF_HEADER]: CSRF_HEADER_VALUE },
    });
    if (!res.ok) return false;
    const parsed = RefreshResponseSchema.safeParse(await res.json());
    if (!parsed.success) return false;
    authStore.setToken(parsed.data.tokens.access_token);
    return true;
  } catch {
    return false;
  }
}

/**
 * Trades the HttpOnly refresh cookie for a new access token. Concurrent callers share one
 * request: the API rotates the cookie, so two parallel refreshes would race each other.
 */
export function refreshSession(): Promise<boolean> {
  refreshing ??= requestNewToken().finally(() => {
    refreshing = null;
  });
  return refreshing;
}

function currentRoute(): string {
  return `${window.location.pathname}${window.location.search}`;
}

/**
 * Sends one call, with the bearer token, and on a 401 refreshes the session once and sends it
 * again. Answers the response, whatever its status, except a final 401 (the session is over).
 */
async function authorizedFetch(path: string, options: Omit<ApiOptions<unknown>, 'schema'>, extraHeaders: Record<string, string> = {}): Promise<Response> {
  const { method = 'GET', body, query, signal, retryOnUnauthorized = true } = options;
  const url = buildUrl(path, query);

  const attempt = () => {
    const headers: Record<string, string> = { accept: 'application/json', [CSRF_HEADER]: CSRF_HEADER_VALUE, ...extraHeaders };
    const token = authStore.getState().token;
    if (token) headers.authorization = `Bearer ${token}`;
    if (body !== undefined) headers['content-type'] = 'application/json';
    return send(url, {
      method,
      headers,
      credentials: 'include',
      body: body === undefined ? undefined : JSON.stringify(body),
      signal,
    });
  };

  let res = await attempt();
  if (res.status === 401 && retryOnUnauthorized) {
    if (await refreshSession()) {
      res = await attempt();
    }
    if (res.status === 401) {
      const error = await toApiError(res);
      authStore.clear('expired');
      notifySessionExpired(currentRoute());
      throw error;
    }
  }
  return res;
}

async function parseBody<T>(res: Response, schema: z.ZodType<T>, method: string, path: string): Promise<T> {
  const json: unknown = await res.json().catch(() => undefined);
  const parsed = schema.safeParse(json);
  if (!parsed.success) {
    console.warn(`Réponse de ${method} ${path} non conforme au contrat`, parsed.error.issues);
    throw new ApiError(res.status, UNEXPECTED_RESPONSE, 'Unexpected Response');
  }
  return parsed.data;
}

/** Calls the API (same origin, under /api) and returns the response parsed by `schema`. */
export async function api<T = void>(path: string, options: ApiOptions<T> = {}): Promise<T> {
  const { method = 'GET', schema } = options;
  const res = await authorizedFetch(path, options);
  if (!res.ok) throw await toApiError(res);
  if (!schema || res.status === 204) return undefined as T;
  return parseBody(res, schema, method, path);
}

/** An answer the web app holds, with the ETag it came with (a list page, a page of choices). */
export type Held<T> = { data: T; etag: string | null };

/**
 * GETs a list the app may already hold. The API's lists answer `Cache-Control: no-store`
 * (personal data): the browser keeps nothing, so the app sends the ETag of the answer it holds
 * for the same query itself (`If-None-Match`), and a 304 (no body) means that answer is still
 * the current one: it is kept as it is, the same object, so nothing on screen re-renders.
 */
export async function apiHeld<T>(path: string, options: Omit<ApiOptions<T>, 'method' | 'body' | 'schema'> & { schema: z.ZodType<T>; held?: Held<T> }): Promise<Held<T>> {
  const { held, schema } = options;
  const res = await authorizedFetch(path, options, held?.etag ? { 'if-none-match': held.etag } : {});
  if (res.status === 304 && held) return held;
  if (!res.ok) throw await toApiError(res);
  return { data: await parseBody(res, schema, 'GET', path), etag: res.headers.get('etag') };
}

/** Tests only: forget a pending refresh. */
export function resetApiClient() {
  refreshing = null;
}
