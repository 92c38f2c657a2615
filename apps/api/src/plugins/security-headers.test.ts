import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../test/test-app.js';

describe('security headers', () => {
  let t: TestContext;
  let https: TestContext;
  beforeAll(async () => {
    t = await createTestApp();
    https = await createTestApp({ PUBLIC_URL: 'https://flotte.exemple.fr' });
  });
  afterAll(async () => {
    await t.close();
    await https.close();
  });

  it('sends the policy on API answers, errors and 404s alike', async () => {
    for (const url of ['/api/health', '/api/driver', '/api/nulle-part']) {
      const response = await t.app.inject({ method: 'GET', url });
      const policy = String(response.headers['content-security-policy']).split(';').sort();
      expect(policy).toEqual(
        [
          "default-src 'self'",
          "script-src 'self'",
          "style-src 'self' 'unsafe-inline'",
          "img-src 'self' data: https:",
          "connect-src 'self'",
          "font-src 'self' data:",
          "frame-ancestors 'none'",
          "base-uri 'self'",
          "form-action 'self'",
          "object-src 'none'",
          "script-src-attr 'none'",
        ].sort(),
      );
      expect(response.headers).toMatchObject({
        'x-content-type-options': 'nosniff',
        'x-frame-options': 'SAMEORIGIN',
        'referrer-policy': 'no-referrer',
        'cross-origin-opener-policy': 'same-origin',
        'cross-origin-resource-policy': 'same-origin',
      });
      expect(response.headers['x-powered-by']).toBeUndefined();
      // Over plain http (the demo on localhost), no HSTS.
      expect(response.headers['strict-transport-security']).toBeUndefined();
    }
  });

  it('asks browsers for HTTPS only when the public URL is https', async () => {
    const response = await https.app.inject({ method: 'GET', url: '/api/health' });
    expect(response.headers['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
  });
});
