import { describe, expect, it, vi } from 'vitest';
import { fakeXhr } from '../test/fake-xhr';
import { mockFetch } from '../test/mock-fetch';
import { authStore } from './auth-store';
import { apiUpload, UPLOAD_FAILED } from './api-upload';
import { ApiError } from './api-error';

const options = { field: 'file', onProgress: () => undefined, tooLarge: 'Le fichier est trop volumineux.' };
const file = () => new File(['a;b'], 'conducteurs.csv', { type: 'text/csv' });

describe('an upload refused by a server error', () => {
  it('carries the reference of the API\'s 5xx body', async () => {
    fakeXhr({
      status: 500,
      body: { statusCode: 500, error: 'Internal Server Error', message: 'Une erreur interne est survenue. Veuillez réessayer.', requestId: 'hT3x_9Qa-Lm2Zp0w' },
      headers: { 'X-Request-Id': 'hT3x_9Qa-Lm2Zp0w' },
    });
    const error = await apiUpload('/api/import', [file()], options).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).message).toBe('Une erreur interne est survenue. Veuillez réessayer. Référence : hT3x_9Qa-Lm2Zp0w');
  });

  it('takes the X-Request-Id header when the body is not the API\'s, and says no reference for a refusal', async () => {
    fakeXhr({ status: 502, body: null, headers: { 'x-request-id': 'proxy-7f3e9a1c' } });
    const gateway = await apiUpload('/api/import', [file()], options).catch((e: unknown) => e);
    expect((gateway as ApiError).message).toBe(`${UPLOAD_FAILED} Référence : proxy-7f3e9a1c`);
    fakeXhr({ status: 413, body: null, headers: { 'x-request-id': 'proxy-7f3e9a1c' } });
    const tooLarge = await apiUpload('/api/import', [file()], options).catch((e: unknown) => e);
    expect((tooLarge as ApiError).message).toBe('Le fichier est trop volumineux.');
  });
});

describe('an upload’s Idempotency-Key (decision 050)', () => {
  it('is fresh for each upload and the same when the upload is sent again after a refresh', async () => {
    authStore.setToken('expired');
    mockFetch([{ method: 'POST', path: '/api/auth/refresh-token', body: { tokens: { access_token: 'fresh' } } }]);
    let calls = 0;
    const xhr = fakeXhr(() => (++calls === 1 ? { status: 401, body: { statusCode: 401, error: 'Unauthorized', message: 'Session expirée' } } : { status: 200, body: { ok: true } }));
    await apiUpload('/api/document/upload', [file()], options);
    await apiUpload('/api/document/upload', [file()], options);
    const keys = xhr.requestHeaders.map((headers) => headers['idempotency-key']);
    expect(keys).toHaveLength(3);
    expect(keys[0]).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(keys[1]).toBe(keys[0]);
    expect(keys[2]).not.toBe(keys[0]);
    vi.unstubAllGlobals();
  });
});
