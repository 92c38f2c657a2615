import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { apiAs } from './support/api.js';
import { expectAccessible, launchBrowser, login, newPage, screenshot } from './support/browser.js';

// Every value below comes from the API over the demo seed (admin@demo.fr, Transports Martin), read
// in the test: nothing is hard-coded but the rule that turns a figure into a colour.

let browser: Browser;
let admin: Awaited<ReturnType<typeof apiAs>>;
let savedConfig: { lossRatioPercentage: number; claimFrequencyPercentage: number };
beforeAll(async () => {
  browser = await launchBrowser();
  admin = await apiAs('admin@demo.fr');
  savedConfig = (await admin.call('GET', '/api/dashboard/config')) as typeof savedConfig;
});
afterAll(async () => {
  await browser?.close();
});
afterEach(async () => {
  // The limits as the seed left them, whatever the test did.
  await admin.call('PUT', '/api/dashboard/config', savedConfig);
});

type LossRatio = { startDate: string; endDate: string; costOfClaims: number; earnedPremiums: number; ratio: number | null };
type Monthly = { month: string; claims: number; cost: number }[];
type ByGuarantee = { guaranteeUuid: string | null; label: string | null; claims: number; cost: number }[];
type HalfDifference = { n0: number; n1: number; halfDifference: number; countedOn: string; startDate: string; endDate: string } | null;

const text = (value: string | null) => (value ?? '').replace(/\s+/g, ' ').trim();
/** « 65,3 % »: one decimal, a comma, spaces between thousands. */
const percent = (value: number) => {
  const tenths = Math.round(Math.abs(value) * 10);
  return text(`${value < 0 && tenths > 0 ? '-' : ''}${Math.floor(tenths / 10).toLocaleString('fr-FR')},${tenths % 10} %`);
};
/** DOMAIN.md: green below, orange within 10 points, red above. */
const statusOf = (value: number, limit: number) => (value > limit ? 'Au-dessus de la limite' : value >= limit - 10 ? 'Proche de la limite' : 'Sous la limite');
const CHIP_CLASS = { 'Au-dessus de la limite': 'MuiChip-colorError', 'Proche de la limite': 'MuiChip-colorWarning', 'Sous la limite': 'MuiChip-colorSuccess' } as const;

const card = (page: Page, title: string) => page.getByRole('article', { name: title });
const cardValue = async (page: Page, title: string) => text(await card(page, title).getByRole('link').first().textContent());
const chip = (page: Page, title: string) => card(page, title).locator('.MuiChip-root');
const query = (params: Record<string, string | undefined>) => new URLSearchParams(Object.entries(params).filter((e): e is [string, string] => e[1] !== undefined)).toString();
const get = <T,>(path: string, params: Record<string, string | undefined> = {}) => admin.call('GET', `${path}?${query(params)}`) as Promise<T>;

async function openDashboard(page: Page, search = '') {
  await login(page, 'admin@demo.fr');
  if (search) await page.goto(`/dashboard${search}`);
  await expect.poll(() => card(page, 'S/P (sinistres / primes)').getByRole('link').count()).toBeGreaterThan(0);
}

/** Scrolls to each chart in turn and waits for it to be drawn (charts load near the screen). */
async function expectEveryChartDrawn(page: Page) {
  for (const title of ['Sinistres et coût par mois', 'Coût par garantie', 'Répartition par responsabilité', 'Taille du parc']) {
    const panel = page.getByRole('region', { name: title });
    await panel.scrollIntoViewIfNeeded();
    await expect.poll(() => panel.locator('svg.MuiChartsSvgLayer-root').count(), { timeout: 10_000 }).toBeGreaterThanOrEqual(1);
  }
}

describe('dashboard', () => {
  it('shows the seed’s figures over the last six months, each with its limit in colour and words', async () => {
    const [lossRatio, config, current] = await Promise.all([
      get<LossRatio>('/api/dashboard/loss-ratio'),
      get<typeof savedConfig>('/api/dashboard/config'),
      get<HalfDifference>('/api/dashboard/current-half-difference'),
    ]);
    expect(lossRatio.ratio).not.toBeNull();
    const ratio = lossRatio.ratio!;
    const { page, consoleErrors } = await newPage(browser, { width: 1366, height: 900 });
    await openDashboard(page);

    await expect.poll(() => cardValue(page, 'S/P (sinistres / primes)')).toBe(percent(ratio));
    const status = statusOf(ratio, config.lossRatioPercentage);
    await expect.poll(async () => text(await chip(page, 'S/P (sinistres / primes)').textContent())).toBe(status);
    expect(await chip(page, 'S/P (sinistres / primes)').getAttribute('class')).toContain(CHIP_CLASS[status]);

    if (current) {
      await expect.poll(() => cardValue(page, 'Demi-différence (véhicules)')).toBe(`${current.halfDifference > 0 ? '+' : ''}${String(current.halfDifference).replace('.', ',')}`);
      const frequency = await get<{ frequency: number | null }>('/api/dashboard/claim-frequency');
      if (frequency.frequency !== null) {
        await expect.poll(() => cardValue(page, 'Fréquence des sinistres')).toBe(percent(frequency.frequency!));
        await expect.poll(async () => text(await chip(page, 'Fréquence des sinistres').textContent())).toBe(statusOf(frequency.frequency!, config.claimFrequencyPercentage));
      }
    }

    // The formula behind the S/P, on focus of its (i).
    const info = card(page, 'S/P (sinistres / primes)').getByRole('button', { name: 'Calcul : S/P (sinistres / primes)' });
    await expect
      .poll(async () => {
        await info.hover();
        return page.getByRole('tooltip').count();
      })
      .toBe(1);
    expect(text(await page.getByRole('tooltip').textContent())).toContain(
      `S/P = coût des sinistres ÷ primes acquises × 100 = ${text(lossRatio.costOfClaims.toLocaleString('fr-FR', { style: 'currency', currency: 'EUR' }))}`,
    );
    await page.mouse.move(0, 0);

    // The charts arrive (their own chunks) and every month's link says the API's count.
    const monthly = await get<Monthly>('/api/dashboard/claims-by-month');
    const monthLinks = page.getByRole('list', { name: 'Sinistres par mois' }).getByRole('link');
    await expect.poll(() => monthLinks.count()).toBe(monthly.length);
    const last = monthly.at(-1)!;
    expect(text(await monthLinks.last().textContent())).toContain(`${last.claims} sinistre`);
    await expectEveryChartDrawn(page);

    // The table of half-differences: one row per period.
    const periods = await get<unknown[]>('/api/dashboard/half-differences');
    await expect.poll(() => page.getByRole('table', { name: 'Demi-différence par période' }).locator('tbody tr').count()).toBe(periods.length);

    await expectAccessible(page);
    await screenshot(page, 'dashboard-1366');
    expect(consoleErrors).toEqual([]);
  });

  it('colours each status against the limit as it changes, with its words', async () => {
    const lossRatio = await get<LossRatio>('/api/dashboard/loss-ratio');
    const ratio = lossRatio.ratio!;
    const { page } = await newPage(browser);
    await login(page, 'admin@demo.fr');
    // Limits chosen from the figure: just under it (red), 5 points over it (orange), 20 over (green).
    const limits = [Math.floor(ratio) - 1, Math.ceil(ratio) + 5, Math.ceil(ratio) + 20].filter((limit) => limit >= 1);
    const seen = new Set<string>();
    for (const limit of limits) {
      await admin.call('PUT', '/api/dashboard/config', { ...savedConfig, lossRatioPercentage: limit });
      await page.goto('/dashboard');
      const status = statusOf(ratio, limit);
      seen.add(status);
      await expect.poll(async () => text(await chip(page, 'S/P (sinistres / primes)').textContent())).toBe(status);
      expect(await chip(page, 'S/P (sinistres / primes)').getAttribute('class')).toContain(CHIP_CLASS[status]);
      expect(text(await card(page, 'S/P (sinistres / primes)').textContent())).toContain(`Limite : ${limit} %`);
    }
    expect(seen.size).toBe(limits.length);
  });

  it('filters by declared claims and by window, in the URL, and the figures follow', async () => {
    const { page } = await newPage(browser);
    await openDashboard(page);
    await page.getByRole('button', { name: 'Déclarés', exact: true }).click();
    await expect.poll(() => new URL(page.url()).searchParams.get('isDeclared')).toBe('true');
    const declared = await get<LossRatio>('/api/dashboard/loss-ratio', { isDeclared: 'true' });
    await expect.poll(() => cardValue(page, 'S/P (sinistres / primes)')).toBe(declared.ratio === null ? '—' : percent(declared.ratio));

    await page.getByRole('button', { name: 'Non déclarés', exact: true }).click();
    await expect.poll(() => new URL(page.url()).searchParams.get('isDeclared')).toBe('false');
    const notDeclared = await get<LossRatio>('/api/dashboard/loss-ratio', { isDeclared: 'false' });
    await expect.poll(() => cardValue(page, 'S/P (sinistres / primes)')).toBe(notDeclared.ratio === null ? '—' : percent(notDeclared.ratio));
    // The two add up to all the claims' cost.
    const all = await get<LossRatio>('/api/dashboard/loss-ratio');
    expect(Math.round((declared.costOfClaims + notDeclared.costOfClaims) * 100)).toBe(Math.round(all.costOfClaims * 100));

    // A year's window from the URL (a shared link).
    const endDate = all.endDate;
    const startDate = `${Number(endDate.slice(0, 4)) - 1}${endDate.slice(4)}`;
    await page.goto(`/dashboard?startDate=${startDate}&endDate=${endDate}`);
    const year = await get<LossRatio>('/api/dashboard/loss-ratio', { startDate, endDate });
    await expect.poll(() => cardValue(page, 'S/P (sinistres / primes)')).toBe(year.ratio === null ? '—' : percent(year.ratio));
    const months = await get<Monthly>('/api/dashboard/claims-by-month', { startDate, endDate });
    await expect.poll(() => page.getByRole('list', { name: 'Sinistres par mois' }).getByRole('link').count()).toBe(months.length);
  });

  it('opens the claims behind a figure in one click', async () => {
    const { page } = await newPage(browser);
    await openDashboard(page, '?isDeclared=true');
    const lossRatio = await get<LossRatio>('/api/dashboard/loss-ratio', { isDeclared: 'true' });
    const monthly = await get<Monthly>('/api/dashboard/claims-by-month', { isDeclared: 'true' });
    const claims = monthly.reduce((sum, m) => sum + m.claims, 0);

    await card(page, 'S/P (sinistres / primes)').getByRole('link').click();
    await page.waitForURL('**/sinisters?**');
    const params = new URL(page.url()).searchParams;
    expect(Object.fromEntries(params)).toEqual({ startDate: lossRatio.startDate, endDate: lossRatio.endDate, showDeclared: 'true' });
    await expect.poll(async () => text(await page.getByText(/ sinistres? · .* du /).first().textContent())).toMatch(new RegExp(`^${claims} sinistres? · `));
    // Their total is the S/P's cost of claims.
    const euros = text(lossRatio.costOfClaims.toLocaleString('fr-FR', { style: 'currency', currency: 'EUR' }));
    expect(text(await page.getByText(/ sinistres? · .* du /).first().textContent())).toContain(`· ${euros} du `);
    await expect.poll(() => page.getByRole('button', { name: 'Sinistres déclarés', exact: true }).getAttribute('aria-pressed')).toBe('true');

    // A guarantee's cost: its claims, filtered by that guarantee.
    await page.goBack();
    const byGuarantee = (await get<ByGuarantee>('/api/dashboard/claims-by-guarantee', { isDeclared: 'true' })).filter((g) => g.guaranteeUuid).sort((a, b) => b.cost - a.cost);
    const first = byGuarantee[0]!;
    await page.getByRole('list', { name: 'Sinistres par garantie' }).getByRole('link', { name: new RegExp(`^${first.label}`) }).click();
    await page.waitForURL('**/sinisters?**');
    expect(new URL(page.url()).searchParams.get('garantee')).toBe(first.guaranteeUuid);
    await expect.poll(async () => text(await page.getByText(/ sinistres? · .* du /).first().textContent())).toMatch(new RegExp(`^${first.claims} sinistres? · `));

    // A driver's at-fault claims over the 12 months ending on the window's last day (all claims),
    // by the driver's uuid: the claims screen names the driver in a removable chip.
    await page.goto('/dashboard');
    const drivers = await get<{ driverUuid: string; firstName: string; lastName: string; atFaultClaims: number; cost: number }[]>('/api/dashboard/top-drivers');
    expect(drivers.length).toBeGreaterThan(0);
    const driver = drivers[0]!;
    const name = `${driver.firstName} ${driver.lastName}`;
    await page.getByRole('table', { name: 'Conducteurs les plus sinistrés' }).getByRole('link', { name: new RegExp(`de ${name}$`) }).click();
    await page.waitForURL('**/sinisters?**');
    const query = new URL(page.url()).searchParams;
    const lossWindow = await get<LossRatio>('/api/dashboard/loss-ratio');
    const yearBefore = new Date(`${lossWindow.endDate}T00:00:00Z`);
    yearBefore.setUTCFullYear(yearBefore.getUTCFullYear() - 1);
    yearBefore.setUTCDate(yearBefore.getUTCDate() + 1);
    expect(Object.fromEntries(query)).toEqual({ startDate: yearBefore.toISOString().slice(0, 10), endDate: lossWindow.endDate, responsible: 'me', driver: driver.driverUuid });
    const money = (amount: number) => text(amount.toLocaleString('fr-FR', { style: 'currency', currency: 'EUR' }));
    await expect
      .poll(async () => text(await page.getByText(/ sinistres? · .* du /).first().textContent()))
      .toMatch(new RegExp(`^${driver.atFaultClaims} sinistres? · ${money(driver.cost)} du `));
    const chip = page.getByRole('button', { name: `Conducteur : ${name} (retirer ce filtre)` });
    await expect.poll(() => chip.isVisible()).toBe(true);
    await expect.poll(() => page.getByRole('button', { name: 'Je suis responsable', exact: true }).getAttribute('aria-pressed')).toBe('true');
    await expectAccessible(page);
    await screenshot(page, 'sinisters-driver-filter-1366');
    // Removed: the driver leaves the URL, the other filters stay.
    await chip.click();
    await expect.poll(() => new URL(page.url()).searchParams.has('driver')).toBe(false);
    expect(new URL(page.url()).searchParams.get('responsible')).toBe('me');
    await expect.poll(() => chip.count()).toBe(0);
  });

  it('reads well on a phone: tables as cards, nothing wider than the screen, a driver’s claims one tap away', async () => {
    const { page, consoleErrors } = await newPage(browser, { width: 390, height: 844 });
    await openDashboard(page);
    await expect.poll(() => page.getByRole('list', { name: 'Sinistres par mois' }).getByRole('link').count()).toBeGreaterThan(0);
    // The charts far below the first screen are not drawn (nor their chunk run) before the user
    // scrolls towards them; each is drawn once it comes near.
    expect(await page.getByRole('region', { name: 'Taille du parc' }).locator('svg.MuiChartsSvgLayer-root').count()).toBe(0);
    await expectEveryChartDrawn(page);
    // The half-differences and the top drivers: one card per row, no table scrolling sideways.
    const periods = await get<unknown[]>('/api/dashboard/half-differences');
    await expect.poll(() => page.getByRole('list', { name: 'Demi-différence par période' }).getByRole('listitem').count()).toBe(periods.length);
    expect(await page.getByRole('table').count()).toBe(0);
    const sideways = await page.evaluate(() =>
      Array.from(document.querySelectorAll('main *')).filter((e) => e.scrollWidth > e.clientWidth + 1 && ['auto', 'scroll'].includes(getComputedStyle(e).overflowX) && e.tagName !== 'INPUT').length,
    );
    expect(sideways).toBe(0);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await expectAccessible(page);
    await screenshot(page, 'dashboard-390');

    const drivers = await get<{ driverUuid: string; firstName: string; lastName: string }[]>('/api/dashboard/top-drivers');
    const driver = drivers[0]!;
    const name = `${driver.firstName} ${driver.lastName}`;
    await page.getByRole('list', { name: 'Conducteurs les plus sinistrés' }).getByRole('link', { name: new RegExp(`de ${name}$`) }).click();
    await page.waitForURL('**/sinisters?**');
    expect(new URL(page.url()).searchParams.get('driver')).toBe(driver.driverUuid);
    // On a phone the other filters fold behind « Filtres (3) »; the driver's chip stays in sight.
    await expect.poll(() => page.getByRole('button', { name: `Conducteur : ${name} (retirer ce filtre)` }).isVisible()).toBe(true);
    expect(await page.getByRole('button', { name: 'Filtres (3)' }).isVisible()).toBe(true);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await expectAccessible(page);
    await screenshot(page, 'sinisters-driver-filter-390');
    expect(consoleErrors).toEqual([]);
  });
});
