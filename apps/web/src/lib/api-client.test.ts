import { describe, expect, it, vi } from 'vitest';
import { UserSchema } from '@flotte/contract';
import { apiErrorBody, mockFetch } from '../test/mock-fetch';
import { makeUser } from '../test/fixtures';
import { api, refreshSession } from './api-client';
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
