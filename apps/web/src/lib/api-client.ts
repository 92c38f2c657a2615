// No zod at run time here (decision 015): this module is on every page's first load, the login's
// included. The server validates each answer against the contract before sending it; the contract's
// schemas check the answers again in development and in the web's tests only.
import { CSRF_HEADER, CSRF_HEADER_VALUE, IDEMPOTENCY_KEY_HEADER, type ApiError as ErrorEnvelope, type RefreshResponse } from '@flotte/contract';
import type { z } from 'zod';
import { ApiError } from './api-error';
import { authStore } from './auth-store';
import { newIdempotencyKey } from './idempotency-key';
import { notifySessionExpired } from './session-expiry';

export type QueryValue = string | number | boolean | null | undefined;

export type ApiOptions<T> = {
  method?: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
  body?: unknown;
  query?: Record<string, QueryValue>;
  /**
   * The contract's schema of the answer, checked in development and tests only: pass it as
   * `import.meta.env.DEV ? XxxSchema : undefined` so the production build drops it, and zod with it.
   * The answer is typed T either way (`api<T>()` or inferred from the schema).
   */
  schema?: z.ZodType<T>;
  signal?: AbortSignal;
  /** Auth calls (login, logout) answer 401 themselves: no refresh-and-retry for them. */
  retryOnUnauthorized?: boolean;
  /**
   * A call that creates or applies something (an import's commit, a payment): it carries a fresh
   * Idempotency-Key, the same when it is sent again after a refresh, so the API does it once
   * (decision 050).
   */
  idempotent?: boolean;
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

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null;

/** The API's error envelope `{ statusCode, error, message, details? }` (ErrorSchema), checked by hand. */
export function isErrorEnvelope(body: unknown): body is ErrorEnvelope {
  return (
    isRecord(body) &&
    Number.isInteger(body.statusCode) &&
    typeof body.error === 'string' &&
    typeof body.message === 'string' &&
    (body.requestId === undefined || typeof body.requestId === 'string') &&
    (body.details === undefined ||
      (Array.isArray(body.details) && body.details.every((d) => isRecord(d) && typeof d.path === 'string' && typeof d.message === 'string')))
  );
}

/** The refresh answer `{ tokens: { access_token } }` (RefreshResponseSchema), checked by hand. */
function isRefreshResponse(body: unknown): body is RefreshResponse {
  return isRecord(body) && isRecord(body.tokens) && typeof body.tokens.access_token === 'string';
}

export async function toApiError(res: Response): Promise<ApiError> {
  const body: unknown = await res.json().catch(() => null);
  const retryAfter = retryAfterSeconds(res.headers.get('retry-after'));
  // The body's id, else the header's (a 5xx whose body is not the API's own, a proxy's say).
  const headerId = res.headers.get('x-request-id');
  if (isErrorEnvelope(body)) {
    const { statusCode, error, message, details = [], requestId } = body;
    return new ApiError(statusCode, message, error, details.map(({ path, message: text }) => ({ path, message: text })), retryAfter, requestId ?? headerId);
  }
  const message = res.status === 503 ? UNAVAILABLE : `Une erreur est survenue (code ${res.status}). Veuillez réessayer.`;
  return new ApiError(res.status, message, res.statusText, [], retryAfter, headerId);
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
    const body: unknown = await res.json();
    if (!isRefreshResponse(body)) return false;
    authStore.setToken(body.tokens.access_token);
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
export async function authorizedFetch(path: string, options: Omit<ApiOptions<unknown>, 'schema'>, extraHeaders: Record<string, string> = {}): Promise<Response> {
  const { method = 'GET', body, query, signal, retryOnUnauthorized = true, idempotent = false } = options;
  const url = buildUrl(path, query);
  const idempotency: Record<string, string> = idempotent ? { [IDEMPOTENCY_KEY_HEADER]: newIdempotencyKey() } : {};

  const attempt = () => {
    const headers: Record<string, string> = { accept: 'application/json', [CSRF_HEADER]: CSRF_HEADER_VALUE, ...idempotency, ...extraHeaders };
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

/**
 * The answer's JSON, typed T: the server sent it through the same contract schema (serializer of
 * fastify-type-provider-zod), so the wire JSON already is the schema's output. An empty body (204)
 * is undefined; a body that is not JSON is an ApiError. In development and tests, `schema` checks it.
 */
async function readBody<T>(res: Response, schema: z.ZodType<T> | undefined, method: string, path: string): Promise<T> {
  if (res.status === 204) return undefined as T;
  let json: unknown;
  try {
    const text = await res.text();
    json = text === '' ? undefined : JSON.parse(text);
  } catch {
    throw new ApiError(res.status, UNEXPECTED_RESPONSE, 'Unexpected Response');
  }
  if (import.meta.env.DEV && schema) {
    const parsed = schema.safeParse(json);
    if (!parsed.success) {
      console.warn(`Réponse de ${method} ${path} non conforme au contrat`, parsed.error.issues);
      throw new ApiError(res.status, UNEXPECTED_RESPONSE, 'Unexpected Response');
    }
    return parsed.data;
  }
  return json as T;
}

/** Calls the API (same origin, under /api) and returns its answer, typed T (decision 015). */
export async function api<T = void>(path: string, options: ApiOptions<T> = {}): Promise<T> {
  const { method = 'GET', schema } = options;
  const res = await authorizedFetch(path, options);
  if (!res.ok) throw await toApiError(res);
  return readBody(res, schema, method, path);
}

/** An answer the web app holds, with the ETag it came with (a list page, a page of choices). */
export type Held<T> = { data: T; etag: string | null };

/**
 * GETs a list the app may already hold. The API's lists answer `Cache-Control: no-store`
 * (personal data): the browser keeps nothing, so the app sends the ETag of the answer it holds
 * for the same query itself (`If-None-Match`), and a 304 (no body) means that answer is still
 * the current one: it is kept as it is, the same object, so nothing on screen re-renders.
 */
export async function apiHeld<T>(path: string, options: Omit<ApiOptions<T>, 'method' | 'body'> & { held?: Held<T> }): Promise<Held<T>> {
  const { held, schema } = options;
  // Asked already by the cold load (startEarlyGet): its answer, when it came back 2xx.
  const early = held ? undefined : await takeEarly(buildUrl(path, options.query));
  if (early) return { data: await readBody(early, schema, 'GET', path), etag: early.headers.get('etag') };
  const res = await authorizedFetch(path, options, held?.etag ? { 'if-none-match': held.etag } : {});
  if (res.status === 304 && held) return held;
  if (!res.ok) throw await toApiError(res);
  return { data: await readBody(res, schema, 'GET', path), etag: res.headers.get('etag') };
}

/** How long a GET started early waits to be taken by the screen that asks it. */
const EARLY_FOR_MS = 15_000;
const earlyGets = new Map<string, { response: Promise<Response | null>; at: number }>();

/**
 * Starts a GET a screen is about to ask for, before its chunk has even arrived (a cold load's
 * first page: lib/first-requests.ts). The screen's own apiHeld for the same URL, within 15 s,
 * takes its answer instead of sending another request. Only a 2xx is handed over: anything else
 * (a 401, a 503, no network) is dropped silently and the screen asks again, so its errors, retries
 * and session handling stay its own.
 */
export function startEarlyGet(path: string, query?: Record<string, QueryValue>): void {
  const url = buildUrl(path, query);
  if (earlyGets.has(url)) return;
  const response = authorizedFetch(path, { query, retryOnUnauthorized: false }).then(
    (res) => (res.ok ? res : null),
    () => null,
  );
  earlyGets.set(url, { response, at: Date.now() });
}

/** The early GET of `url`, once (null when it failed or is stale). */
function takeEarly(url: string): Promise<Response | null> | null {
  const early = earlyGets.get(url);
  if (!early) return null;
  earlyGets.delete(url);
  return Date.now() - early.at <= EARLY_FOR_MS ? early.response : null;
}

/** Tests only: forget a pending refresh and any early GET. */
export function resetApiClient() {
  refreshing = null;
  earlyGets.clear();
}
