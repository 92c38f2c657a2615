import { vi } from 'vitest';

export type MockRoute = {
  method?: string;
  /** Path without the query string, e.g. `/api/auth/me`. */
  path: string | RegExp;
  status?: number;
  body?: unknown;
  /** Response headers besides content-type, e.g. an `etag` or a `retry-after`. */
  headers?: Record<string, string>;
  /** Computed answer, for answers depending on the request or on the call count. */
  respond?: (request: Request, call: number) => { status?: number; body?: unknown; headers?: Record<string, string> };
};

/**
 * Stubs `fetch` itself (nothing above it is mocked): answers JSON from the route table, and
 * fails the test loudly for a call no route expects. Returns the calls made.
 */
export function mockFetch(routes: MockRoute[]) {
  const calls: Request[] = [];
  const counts = new Map<MockRoute, number>();
  const fetchMock = vi.fn((input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const request = new Request(new URL(String(input instanceof Request ? input.url : input), 'http://localhost'), init);
    calls.push(request);
    const url = new URL(request.url);
    const route = routes.find(
      (candidate) =>
        (candidate.method ?? 'GET') === request.method &&
        (typeof candidate.path === 'string' ? candidate.path === url.pathname : candidate.path.test(url.pathname)),
    );
    if (!route) return Promise.reject(new Error(`Unexpected fetch ${request.method} ${url.pathname}`));
    const call = (counts.get(route) ?? 0) + 1;
    counts.set(route, call);
    const answer = route.respond ? route.respond(request, call) : { status: route.status, body: route.body, headers: route.headers };
    const status = answer.status ?? 200;
    return Promise.resolve(
      new Response(status === 204 || status === 304 || answer.body === undefined ? null : ArrayBuffer.isView(answer.body) ? (answer.body as Uint8Array<ArrayBuffer>) : JSON.stringify(answer.body), {
        status,
        headers: { 'content-type': 'application/json', ...answer.headers },
      }),
    );
  });
  vi.stubGlobal('fetch', fetchMock);
  return { calls, fetchMock };
}

export function apiErrorBody(statusCode: number, message: string, details?: { path: string; message: string }[], requestId?: string) {
  const error =
    { 400: 'Bad Request', 401: 'Unauthorized', 404: 'Not Found', 429: 'Too Many Requests', 500: 'Internal Server Error', 503: 'Service Unavailable' }[statusCode] ??
    'Error';
  return { statusCode, error, message, ...(details ? { details } : {}), ...(requestId ? { requestId } : {}) };
}
