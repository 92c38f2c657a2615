import { describe, expect, it, vi } from 'vitest';
import { DriverChoicePageSchema, UserSchema } from '@flotte/contract';
import { apiErrorBody, mockFetch } from '../test/mock-fetch';
import { makeUser } from '../test/fixtures';
import { api, apiHeld, isErrorEnvelope, refreshSession, retryAfterSeconds, startEarlyGet } from './api-client';
import { ApiError } from './api-error';
import { authStore } from './auth-store';
import { onSessionExpired } from './session-expiry';

describe('api client', () => {
  it('sends the bearer token, the CSRF header, credentials and JSON', async () => {
    const { calls } = mockFetch([{ method: 'PATCH', path: '/api/user/42', body: makeUser() }]);
    authStore.setToken('token-1');

    const user = await api('/api/user/42', { method: 'PATCH', body: { firstName: 'Claire' }, schema: UserSchema });

    expect(user.firstName).toBe('Claire');
    const [request] = calls;
    expect(request?.headers.get('authorization')).toBe('Bearer token-1');
    expect(request?.headers.get('x-requested-with')).toBe('flotteassur');
    expect(request?.headers.get('content-type')).toBe('application/json');
    expect(request?.credentials).toBe('include');
    expect(await request?.json()).toEqual({ firstName: 'Claire' });
  });

  it('drops empty query parameters', async () => {
    const { calls } = mockFetch([{ path: '/api/organization', body: null }]);
    await api('/api/organization', { query: { search: '', limit: 10, page: undefined } });
    expect(new URL(calls[0]!.url).search).toBe('?limit=10');
  });

  it('throws an ApiError with the French message and details of the envelope', async () => {
    mockFetch([
      {
        method: 'POST',
        path: '/api/report',
        status: 400,
        body: apiErrorBody(400, 'Données invalides (title) : Le titre est obligatoire', [
          { path: 'title', message: 'Le titre est obligatoire' },
        ]),
      },
    ]);
    const error = await api('/api/report', { method: 'POST', body: {} }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({
      status: 400,
      message: 'Données invalides (title) : Le titre est obligatoire',
      details: [{ path: 'title', message: 'Le titre est obligatoire' }],
    });
  });

  it('keeps the request id of a server error: from its body, else from its X-Request-Id header', async () => {
    mockFetch([
      { method: 'POST', path: '/api/driver', status: 500, body: apiErrorBody(500, 'Une erreur interne est survenue. Veuillez réessayer.', undefined, 'hT3x_9Qa-Lm2Zp0w'), headers: { 'x-request-id': 'hT3x_9Qa-Lm2Zp0w' } },
      { path: '/api/driver', status: 502, body: '<html>Bad Gateway</html>', headers: { 'x-request-id': 'proxy-7f3e9a1c' } },
      { path: '/api/vehicule', status: 400, body: apiErrorBody(400, 'Données invalides'), headers: { 'x-request-id': 'Zx81-kd_Q0aPw7Lr' } },
    ]);
    const failed = await api('/api/driver', { method: 'POST', body: {} }).catch((e: unknown) => e);
    expect(failed).toMatchObject({ status: 500, requestId: 'hT3x_9Qa-Lm2Zp0w', message: 'Une erreur interne est survenue. Veuillez réessayer. Référence : hT3x_9Qa-Lm2Zp0w' });
    const gateway = await api('/api/driver').catch((e: unknown) => e);
    expect(gateway).toMatchObject({ status: 502, requestId: 'proxy-7f3e9a1c', message: 'Une erreur est survenue (code 502). Veuillez réessayer. Référence : proxy-7f3e9a1c' });
    // A refusal says what to change, without a reference.
    const refused = await api('/api/vehicule').catch((e: unknown) => e);
    expect((refused as ApiError).message).toBe('Données invalides');
  });

  it('reads an envelope with a request id as the API\'s own, and refuses one whose id is not a string', () => {
    expect(isErrorEnvelope({ statusCode: 500, error: 'Internal Server Error', message: 'Erreur', requestId: 'hT3x_9Qa-Lm2Zp0w' })).toBe(true);
    expect(isErrorEnvelope({ statusCode: 500, error: 'Internal Server Error', message: 'Erreur', requestId: 42 })).toBe(false);
  });

  it('says so in French when the server cannot be reached', async () => {
    vi.stubGlobal('fetch', vi.fn().mockRejectedValue(new TypeError('Failed to fetch')));
    const error = await api('/api/auth/me').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).status).toBe(0);
    expect((error as ApiError).message).toMatch(/^Impossible de joindre le serveur/);
  });

  it('refreshes the token once on a 401 and retries the call', async () => {
    authStore.setToken('expired');
    const { calls } = mockFetch([
      {
        path: '/api/auth/me',
        respond: (request) =>
          request.headers.get('authorization') === 'Bearer fresh'
            ? { body: makeUser() }
            : { status: 401, body: apiErrorBody(401, 'Session expirée') },
      },
      { method: 'POST', path: '/api/auth/refresh-token', body: { tokens: { access_token: 'fresh' } } },
    ]);

    const user = await api('/api/auth/me', { schema: UserSchema });

    expect(user.email).toBe('claire.dupont@demo.fr');
    expect(authStore.getState().token).toBe('fresh');
    expect(calls.map((c) => new URL(c.url).pathname)).toEqual(['/api/auth/me', '/api/auth/refresh-token', '/api/auth/me']);
    const refresh = calls[1]!;
    expect(refresh.headers.get('x-requested-with')).toBe('flotteassur');
    expect(refresh.credentials).toBe('include');
  });

  it('sends a fresh Idempotency-Key with an action, the same when it is sent again after a refresh, none otherwise', async () => {
    authStore.setToken('expired');
    let commits = 0;
    const { calls } = mockFetch([
      { method: 'POST', path: '/api/import/1/commit', respond: () => (++commits === 1 ? { status: 401, body: apiErrorBody(401, 'Session expirée') } : { body: { ok: true } }) },
      { method: 'POST', path: '/api/auth/refresh-token', body: { tokens: { access_token: 'fresh' } } },
      { method: 'POST', path: '/api/import/1/validate', body: { ok: true } },
    ]);
    await api('/api/import/1/commit', { method: 'POST', body: {}, idempotent: true });
    await api('/api/import/1/commit', { method: 'POST', body: {}, idempotent: true });
    await api('/api/import/1/validate', { method: 'POST', body: {} });
    const keys = calls.map((call) => [new URL(call.url).pathname, call.headers.get('idempotency-key')]);
    expect(keys.map(([path]) => path)).toEqual(['/api/import/1/commit', '/api/auth/refresh-token', '/api/import/1/commit', '/api/import/1/commit', '/api/import/1/validate']);
    expect(keys[0]![1]).toMatch(/^[0-9a-f-]{36}$/);
    expect(keys[2]![1]).toBe(keys[0]![1]);
    expect(keys[3]![1]).not.toBe(keys[0]![1]);
    expect(keys[4]![1]).toBeNull();
  });

  it('shares one refresh between concurrent 401s', async () => {
    authStore.setToken('expired');
    const { calls } = mockFetch([
      {
        path: /^\/api\/(a|b|c)$/,
        respond: (request) =>
          request.headers.get('authorization') === 'Bearer fresh' ? { body: {} } : { status: 401, body: apiErrorBody(401, 'Session expirée') },
      },
      { method: 'POST', path: '/api/auth/refresh-token', body: { tokens: { access_token: 'fresh' } } },
    ]);

    await Promise.all([api('/api/a'), api('/api/b'), api('/api/c')]);

    expect(calls.filter((c) => c.url.endsWith('/refresh-token'))).toHaveLength(1);
  });

  it('clears the session and leaves for /refresh when the refresh fails', async () => {
    window.history.pushState({}, '', '/drivers?page=2');
    const expired = vi.fn();
    onSessionExpired(expired);
    authStore.setSession('expired', makeUser());
    mockFetch([
      { path: '/api/auth/me', status: 401, body: apiErrorBody(401, 'Session expirée') },
      { method: 'POST', path: '/api/auth/refresh-token', status: 401, body: apiErrorBody(401, 'Session expirée') },
    ]);

    await expect(api('/api/auth/me')).rejects.toMatchObject({ status: 401 });

    expect(authStore.getState()).toMatchObject({ token: null, user: null });
    expect(expired).toHaveBeenCalledWith('/drivers?page=2');
  });

  it('does not retry auth calls that answer 401 themselves', async () => {
    const { calls } = mockFetch([
      { method: 'POST', path: '/api/auth/login', status: 401, body: apiErrorBody(401, 'Adresse e-mail ou mot de passe incorrect') },
    ]);
    await expect(api('/api/auth/login', { method: 'POST', body: {}, retryOnUnauthorized: false })).rejects.toMatchObject({
      message: 'Adresse e-mail ou mot de passe incorrect',
    });
    expect(calls).toHaveLength(1);
  });

  it('reports a failed refresh as false', async () => {
    mockFetch([{ method: 'POST', path: '/api/auth/refresh-token', status: 401, body: apiErrorBody(401, 'Session expirée') }]);
    await expect(refreshSession()).resolves.toBe(false);
    expect(authStore.getState().token).toBeNull();
  });
});

describe('api client: answers the app already holds (ETag)', () => {
  const choices = { data: [{ uuid: 'd0000000-0000-4000-8000-000000000001', firstName: 'Élodie', lastName: 'Écuyer', phone: null }], page: 1, nbOfPages: 1, total: 1 };

  it('keeps the ETag of a list answer, sends it back as If-None-Match and keeps the held answer on a 304', async () => {
    const { calls } = mockFetch([
      {
        path: '/api/driver/choices',
        respond: (request) =>
          request.headers.get('if-none-match') === '"v1"' ? { status: 304, headers: { etag: '"v1"' } } : { body: choices, headers: { etag: '"v1"' } },
      },
    ]);
    const first = await apiHeld('/api/driver/choices', { query: { limit: 200 }, schema: DriverChoicePageSchema });
    expect(first).toEqual({ data: choices, etag: '"v1"' });
    expect(calls[0]!.headers.get('if-none-match')).toBeNull();

    const second = await apiHeld('/api/driver/choices', { query: { limit: 200 }, schema: DriverChoicePageSchema, held: first });
    expect(calls[1]!.headers.get('if-none-match')).toBe('"v1"');
    // The very object held: nothing on screen re-renders.
    expect(second).toBe(first);
  });

  it('takes the new answer and its new ETag when the list has moved', async () => {
    const moved = { ...choices, total: 2, data: [...choices.data, { ...choices.data[0]!, uuid: 'd0000000-0000-4000-8000-000000000002', firstName: 'Zoé' }] };
    mockFetch([{ path: '/api/driver/choices', body: moved, headers: { etag: '"v2"' } }]);
    const held = { data: DriverChoicePageSchema.parse(choices), etag: '"v1"' };
    const answer = await apiHeld('/api/driver/choices', { schema: DriverChoicePageSchema, held });
    expect(answer).toEqual({ data: moved, etag: '"v2"' });
  });

  it('sends no If-None-Match when it holds nothing, or an answer that came without ETag', async () => {
    const { calls } = mockFetch([{ path: '/api/driver/choices', body: choices }]);
    const first = await apiHeld('/api/driver/choices', { schema: DriverChoicePageSchema });
    expect(first.etag).toBeNull();
    await apiHeld('/api/driver/choices', { schema: DriverChoicePageSchema, held: first });
    expect(calls.map((call) => call.headers.get('if-none-match'))).toEqual([null, null]);
  });
});

describe('api client: a GET started early (a cold load’s first page)', () => {
  const page = { data: [], page: 1, nbOfPages: 0, total: 0 };

  it('hands its answer to the screen asking the same URL, which sends no request of its own', async () => {
    const { calls } = mockFetch([{ path: '/api/driver', body: page, headers: { etag: '"v7"' } }]);
    authStore.setToken('token-1');
    startEarlyGet('/api/driver', { page: 1, limit: 10, sortBy: 'lastName' });
    expect(calls).toHaveLength(1);
    expect(calls[0]!.headers.get('authorization')).toBe('Bearer token-1');

    const answer = await apiHeld('/api/driver', { query: { page: 1, limit: 10, sortBy: 'lastName' } });
    expect(answer).toEqual({ data: page, etag: '"v7"' });
    expect(calls).toHaveLength(1);
    // Taken once: the next ask goes to the server.
    await apiHeld('/api/driver', { query: { page: 1, limit: 10, sortBy: 'lastName' } });
    expect(calls).toHaveLength(2);
  });

  it('is not used for another URL, nor once its 15 s have passed', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      const { calls } = mockFetch([{ path: '/api/driver', body: page }]);
      startEarlyGet('/api/driver', { page: 1, limit: 10, sortBy: 'lastName' });
      await apiHeld('/api/driver', { query: { page: 2, limit: 10, sortBy: 'lastName' } });
      expect(calls.map((call) => new URL(call.url).searchParams.get('page'))).toEqual(['1', '2']);

      vi.setSystemTime(Date.now() + 15_001);
      await apiHeld('/api/driver', { query: { page: 1, limit: 10, sortBy: 'lastName' } });
      expect(calls).toHaveLength(3);
    } finally {
      vi.useRealTimers();
    }
  });

  it('leaves a failure to the screen’s own request: no refresh, no session ended, the error told as usual', async () => {
    const expired = vi.fn();
    onSessionExpired(expired);
    const { calls } = mockFetch([
      { path: '/api/driver', respond: (_request, call) => (call === 1 ? { status: 503, body: apiErrorBody(503, 'Le service est surchargé.') } : { body: page }) },
    ]);
    startEarlyGet('/api/driver', { page: 1 });
    const answer = await apiHeld('/api/driver', { query: { page: 1 } });
    expect(answer.data).toEqual(page);
    expect(calls).toHaveLength(2);

    mockFetch([{ path: '/api/vehicule', status: 401, body: apiErrorBody(401, 'Session expirée') }]);
    startEarlyGet('/api/vehicule');
    await Promise.resolve();
    expect(expired).not.toHaveBeenCalled();
  });

  it('is not taken by a screen that already holds the page (it revalidates with its ETag)', async () => {
    const { calls } = mockFetch([{ path: '/api/driver', respond: () => ({ status: 304, headers: { etag: '"v1"' } }) }]);
    startEarlyGet('/api/driver', { page: 1 });
    const held = { data: page, etag: '"v1"' };
    expect(await apiHeld('/api/driver', { query: { page: 1 }, held })).toBe(held);
    expect(calls[1]!.headers.get('if-none-match')).toBe('"v1"');
  });
});

describe('api client: an overloaded server', () => {
  it('carries the French message of the 503 envelope and its Retry-After', async () => {
    const message = 'Le service est très sollicité en ce moment : réessayez dans quelques secondes.';
    mockFetch([{ path: '/api/vehicule', status: 503, body: apiErrorBody(503, message), headers: { 'retry-after': '2' } }]);
    const error = await api('/api/vehicule').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 503, message, retryAfterSeconds: 2 });
  });

  it('says it in French when a 503 comes without the envelope', async () => {
    vi.stubGlobal('fetch', vi.fn().mockResolvedValue(new Response('<html>Service Unavailable</html>', { status: 503 })));
    const error = await api('/api/vehicule').catch((e: unknown) => e);
    expect(error).toMatchObject({ status: 503, message: 'Le service est momentanément indisponible. Réessayez dans quelques instants.', retryAfterSeconds: null });
  });

  it('reads Retry-After as seconds or as a date', () => {
    expect(retryAfterSeconds('3')).toBe(3);
    expect(retryAfterSeconds(null)).toBeNull();
    expect(retryAfterSeconds('bientôt')).toBeNull();
    const inFive = new Date(Date.now() + 5_000).toUTCString();
    expect(retryAfterSeconds(inFive)).toBeGreaterThanOrEqual(4);
    expect(retryAfterSeconds(inFive)).toBeLessThanOrEqual(5);
  });
});

describe('api client: answers read without zod (decision 015)', () => {
  it('answers the JSON of a call given no schema, and nothing for a 204', async () => {
    mockFetch([
      { path: '/api/guarantees', body: [{ uuid: 'g1', label: 'Bris de glace' }] },
      { method: 'DELETE', path: '/api/driver/1/hard', status: 204 },
    ]);
    await expect(api<{ uuid: string; label: string }[]>('/api/guarantees')).resolves.toEqual([{ uuid: 'g1', label: 'Bris de glace' }]);
    await expect(api('/api/driver/1/hard', { method: 'DELETE' })).resolves.toBeUndefined();
  });

  it('says so in French when the body is not JSON', async () => {
    vi.stubGlobal('fetch', vi.fn().mockResolvedValue(new Response('<html>proxy</html>', { status: 200 })));
    await expect(api('/api/auth/me')).rejects.toMatchObject({ status: 200, message: 'Réponse inattendue du serveur. Veuillez réessayer.' });
  });

  it('checks the answer against the schema given in development and tests', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    mockFetch([{ path: '/api/auth/me', body: { uuid: 'pas un uuid' } }]);
    await expect(api('/api/auth/me', { schema: UserSchema })).rejects.toMatchObject({ message: 'Réponse inattendue du serveur. Veuillez réessayer.' });
    expect(warn).toHaveBeenCalled();
  });

  it('reads the error envelope by hand, and a malformed one as no envelope', async () => {
    expect(isErrorEnvelope(apiErrorBody(400, 'Données invalides', [{ path: 'title', message: 'Le titre est obligatoire' }]))).toBe(true);
    expect(isErrorEnvelope(apiErrorBody(404, 'Introuvable'))).toBe(true);
    expect(isErrorEnvelope({ statusCode: 400, error: 'Bad Request', message: 'x', details: [{ path: 1, message: 'x' }] })).toBe(false);
    expect(isErrorEnvelope({ statusCode: '400', error: 'Bad Request', message: 'x' })).toBe(false);
    expect(isErrorEnvelope(null)).toBe(false);
    mockFetch([{ path: '/api/vehicule', status: 500, body: { message: 'sans statusCode' } }]);
    await expect(api('/api/vehicule')).rejects.toMatchObject({ status: 500, message: 'Une erreur est survenue (code 500). Veuillez réessayer.' });
  });

  it('refuses a refresh answer without its access token', async () => {
    mockFetch([{ method: 'POST', path: '/api/auth/refresh-token', body: { tokens: {} } }]);
    await expect(refreshSession()).resolves.toBe(false);
    expect(authStore.getState().token).toBeNull();
  });
});
