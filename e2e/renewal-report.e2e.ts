import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiAs } from './support/api.js';
import { launchBrowser, login, newPage, screenshot } from './support/browser.js';

// The renewal report from the dashboard: a member clicks « Rapport de sinistralité » on /dashboard
// (the button in the page's header) and Chromium downloads the PDF of the default window, whose
// text is read back here. A refusal of the API shows in the snackbar.

const standardFontDataUrl = `${path.join(path.dirname(createRequire(import.meta.url).resolve('pdfjs-dist/package.json')), 'standard_fonts')}/`;

async function pdfText(bytes: Uint8Array): Promise<string> {
  const pdf = await getDocument({ data: bytes, standardFontDataUrl, verbosity: 0, isEvalSupported: false }).promise;
  const pages: string[] = [];
  for (let n = 1; n <= pdf.numPages; n++) {
    const content = await (await pdf.getPage(n)).getTextContent();
    pages.push(content.items.map((item) => ('str' in item ? item.str : '')).join(' '));
  }
  await pdf.destroy();
  return pages.join(' ').replace(/\s+/g, ' ');
}

const frDate = (iso: string) => iso.split('-').reverse().join('/');
const frEuros = (amount: number) => new Intl.NumberFormat('fr-FR', { style: 'currency', currency: 'EUR' }).format(amount).replace(/\s+/g, ' ');

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

describe('the renewal report', () => {
  it('a member downloads the PDF of the window from the dashboard', async () => {
    const { context, page, consoleErrors } = await newPage(browser);
    await login(page, 'user@demo.fr');
    const button = page.getByRole('button', { name: 'Rapport de sinistralité' });
    const [download] = await Promise.all([page.waitForEvent('download'), button.click()]);

    // The figures the dashboard's API gives for the same (default) window.
    const api = await apiAs('user@demo.fr');
    const lossRatio = (await api.call('GET', '/api/dashboard/loss-ratio')) as { startDate: string; endDate: string; costOfClaims: number; earnedPremiums: number };
    expect(download.suggestedFilename()).toBe(`rapport-sinistralite-transports-martin-${lossRatio.startDate}-${lossRatio.endDate}.pdf`);
    const bytes = await readFile((await download.path())!);
    expect(Buffer.from(bytes.subarray(0, 5)).toString()).toBe('%PDF-');
    const text = await pdfText(new Uint8Array(bytes));
    expect(text).toContain('Rapport de sinistralité');
    expect(text).toContain('Transports Martin');
    expect(text).toContain(`Période du ${frDate(lossRatio.startDate)} au ${frDate(lossRatio.endDate)}`);
    expect(text).toContain(`Coût des sinistres : ${frEuros(lossRatio.costOfClaims)} ; primes acquises : ${frEuros(lossRatio.earnedPremiums)}.`);
    expect(text).toContain('Sinistres de la période');
    // The cover's contract and broker, as /parameters shows them.
    const [contract] = (await api.call('GET', '/api/contract')) as { insurer: string; policyNumber: string }[];
    const broker = (await api.call('GET', '/api/insurance-intermediary/current')) as { name: string } | null;
    expect(text).toContain(contract ? `N° de police ${contract.policyNumber}` : 'Contrat flotte Non renseigné');
    expect(text).toContain(broker ? `Cabinet ${broker.name}` : 'Intermédiaire d’assurance Non renseigné');
    expect(text).not.toContain('BTP Durand');
    await expect.poll(() => button.isEnabled()).toBe(true);
    await screenshot(page, 'renewal-report-1366');
    expect(consoleErrors).toEqual([]);
    await context.close();
  });

  it('a refused download says why in the snackbar, in French', async () => {
    const { context, page } = await newPage(browser, { width: 390, height: 844 });
    await login(page, 'admin@demo.fr');
    await page.route('**/api/dashboard/renewal-report*', (route) =>
      route.fulfill({ status: 503, contentType: 'application/json', json: { statusCode: 503, error: 'Service Unavailable', message: 'Le service est momentanément surchargé. Réessayez dans quelques instants.' } }),
    );
    await page.getByRole('button', { name: 'Rapport de sinistralité' }).click();
    await expect.poll(() => page.getByText('Le service est momentanément surchargé. Réessayez dans quelques instants.').isVisible()).toBe(true);
    await screenshot(page, 'renewal-report-error-390');
    await context.close();
  });
});
