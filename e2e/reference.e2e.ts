import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { baseUrl, launchBrowser, login, newPage, screenshot } from './support/browser.js';

// The support reference (decision 046): every answer of the real server has an X-Request-Id, and
// a server error shows « Référence : <id> » where the user sees the error. The server offers no
// way to fail on purpose (a route that could would be one more thing to abuse in production), so
// the browser turns a real answer into a 500, as exports.e2e.ts does for a 503: the request goes
// to the real server, whose id is kept, header and body, in the 500 the page receives.

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

const GENERATED_ID = /^[A-Za-z0-9_-]{16}$/;

describe('the reference of a server error', () => {
  it('is answered by the real server on every answer, a 404 included', async () => {
    for (const path of ['/api/health', '/api/route-inconnue', '/api/driver']) {
      const response = await fetch(`${baseUrl()}${path}`, { headers: { accept: 'application/json' } });
      expect(response.headers.get('x-request-id'), path).toMatch(GENERATED_ID);
    }
  });

  it('shows « Référence : <id> » under a list whose loading failed with a 500', async () => {
    const { context, page } = await newPage(browser);
    await login(page, 'user@demo.fr');
    const ids: string[] = [];
    await page.route(
      (url) => url.pathname === '/api/driver',
      async (route) => {
        const real = await route.fetch();
        const id = real.headers()['x-request-id'] ?? '';
        ids.push(id);
        await route.fulfill({
          status: 500,
          headers: { 'x-request-id': id, 'cache-control': 'no-store' },
          contentType: 'application/json',
          json: { statusCode: 500, error: 'Internal Server Error', message: 'Une erreur interne est survenue. Veuillez réessayer.', requestId: id },
        });
      },
    );
    await page.goto('/drivers');
    // The list tries a failed read again twice (lib/query-client.ts) before it says so.
    const alert = page.getByRole('alert').filter({ hasText: 'Une erreur interne est survenue' });
    await expect.poll(() => alert.isVisible(), { timeout: 20_000 }).toBe(true);
    expect(ids.length).toBeGreaterThan(0);
    for (const id of ids) expect(id).toMatch(GENERATED_ID);
    const shown = (await alert.textContent()) ?? '';
    expect(shown).toContain('Référence : ');
    // The id is 16 characters; the alert's « Réessayer » button follows it in the text.
    expect(ids).toContain(/Référence : ([A-Za-z0-9_-]{16})/.exec(shown)?.[1]);
    await screenshot(page, 'reference-error-1366');
    await context.close();
  });
});
