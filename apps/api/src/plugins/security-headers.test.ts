import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app.js';
import { loadConfig } from '../config.js';
import { createDrivers, createOrganization, createUser, linkUser } from '../seed/factories.js';
import { createTestApp, createTestDatabase, type TestContext } from '../../test/test-app.js';

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
          "img-src 'self' data: https: blob:",
          "frame-src 'self' blob:",
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

  describe('Cache-Control: no-store on every API answer', () => {
    let token: string;
    beforeAll(async () => {
      await t.seed(async (tx) => {
        const organization = await createOrganization(tx, { title: 'Cache Transports' });
        const user = await createUser(tx, { email: 'cache@transports.fr' });
        await linkUser(tx, organization.uuid, user.uuid);
        await createDrivers(tx, organization.uuid, [{ lastName: 'Durand' }]);
      });
      token = await t.login('cache@transports.fr');
    });

    it('on /api/auth/me, the login answer (a token) and a list with its ETag, and on the 304 of that list', async () => {
      const me = await t.as(token, { method: 'GET', url: '/api/auth/me' });
      expect(me.statusCode).toBe(200);
      expect(me.headers['cache-control']).toBe('no-store');
      const login = await t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: 'cache@transports.fr', password: 'Motdepasse-tests-1' } });
      expect(login.statusCode).toBe(200);
      expect(login.headers['cache-control']).toBe('no-store');
      const list = await t.as(token, { method: 'GET', url: '/api/driver' });
      expect(list.statusCode).toBe(200);
      expect(list.headers.etag).toBeTruthy();
      expect(list.headers['cache-control']).toBe('no-store');
      const notModified = await t.as(token, { method: 'GET', url: '/api/driver', headers: { 'if-none-match': String(list.headers.etag) } });
      expect(notModified.statusCode).toBe(304);
      expect(notModified.headers['cache-control']).toBe('no-store');
    });

    it('on errors: 401, 404, 400 (bad input, bad JSON), 429 and a malformed URL', async () => {
      const answers = [
        await t.app.inject({ method: 'GET', url: '/api/auth/me' }),
        await t.app.inject({ method: 'GET', url: '/api/nulle-part' }),
        await t.as(token, { method: 'GET', url: '/api/driver?page=zero' }),
        await t.app.inject({ method: 'POST', url: '/api/auth/login', headers: { 'content-type': 'application/json' }, payload: '{"email":' }),
        await t.app.inject({ method: 'GET', url: '/api/driver/%E0%A4%A' }),
      ];
      for (let i = 0; i < 10; i++) {
        await t.app.inject({ method: 'POST', url: '/api/auth/login', remoteAddress: '10.77.0.1', payload: { email: 'cache@transports.fr', password: 'faux' } });
      }
      answers.push(await t.app.inject({ method: 'POST', url: '/api/auth/login', remoteAddress: '10.77.0.1', payload: { email: 'cache@transports.fr', password: 'faux' } }));
      expect(answers.map((r) => r.statusCode)).toEqual([401, 404, 400, 400, 400, 429]);
      expect(answers.map((r) => r.headers['cache-control'])).toEqual(answers.map(() => 'no-store'));
      // The malformed URL is refused before routing: still the envelope, in French, with the other headers.
      expect(answers[4]!.json()).toEqual({ statusCode: 400, error: 'Bad Request', message: 'Adresse de la requête invalide.' });
      expect(answers[4]!.headers['x-content-type-options']).toBe('nosniff');
    });
  });

  it('leaves the web app its own caching: hashed assets kept a year, index.html revalidated', async () => {
    const dist = mkdtempSync(path.join(tmpdir(), 'flotte-web-'));
    mkdirSync(path.join(dist, 'assets'));
    writeFileSync(path.join(dist, 'index.html'), '<!doctype html><title>FlotteAssur</title>');
    writeFileSync(path.join(dist, 'assets', 'index-abc123.js'), 'console.log(1)');
    const database = await createTestDatabase();
    const app = await buildApp(loadConfig({ APP_SECRET: 'test-secret-0123456789-0123456789-abcdef', LOG_LEVEL: 'silent', WEB_DIST: dist }), database, { logger: false });
    try {
      const asset = await app.inject({ method: 'GET', url: '/assets/index-abc123.js' });
      expect(asset.statusCode).toBe(200);
      expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      // A script carries what applies to a script, not the page's policies (bytes on every file).
      expect(asset.headers['x-content-type-options']).toBe('nosniff');
      expect(asset.headers['cross-origin-resource-policy']).toBe('same-origin');
      expect(asset.headers['content-security-policy']).toBeUndefined();
      expect(asset.headers['x-frame-options']).toBeUndefined();
      expect(asset.headers['last-modified']).toBeUndefined();
      // A build file that is not there is a 404 in the envelope, never the app's page.
      const missing = await app.inject({ method: 'GET', url: '/assets/index-old999.js' });
      expect(missing.statusCode).toBe(404);
      expect(missing.headers['content-type']).toMatch(/application\/json/);
      expect(missing.json()).toMatchObject({ statusCode: 404 });
      const page = await app.inject({ method: 'GET', url: '/vehicules' });
      expect(page.statusCode).toBe(200);
      expect(page.headers['cache-control']).toBe('no-cache');
      expect(page.headers['content-security-policy']).toContain("default-src 'self'");
      expect((await app.inject({ method: 'GET', url: '/api/nulle-part' })).headers['cache-control']).toBe('no-store');
    } finally {
      await app.close();
      await database.close();
      rmSync(dist, { recursive: true, force: true });
    }
  });
});
