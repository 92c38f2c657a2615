import { describe, expect, it } from 'vitest';
import { fakeXhr } from '../test/fake-xhr';
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
