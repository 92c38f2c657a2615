import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { AxeBuilder } from '@axe-core/playwright';
import { type Browser, type BrowserContext, chromium, type ConsoleMessage, type Frame, type Page, type Request } from 'playwright-core';
import { expect, inject } from 'vitest';

export const DEMO_PASSWORD = 'Demo1234!';
export const SCREENSHOTS = path.resolve(import.meta.dirname, '../screenshots');

const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export function baseUrl() {
  return inject('baseUrl');
}

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: CHROMIUM_ARGS });
}

/** A fresh context (axe needs one from browser.newContext()), French, desktop unless told. */
export async function newPage(browser: Browser, options: { width?: number; height?: number } = {}) {
  const context: BrowserContext = await browser.newContext({
    baseURL: baseUrl(),
    locale: 'fr-FR',
    timezoneId: 'Europe/Paris',
    viewport: { width: options.width ?? 1280, height: options.height ?? 800 },
  });
  const page = await context.newPage();
  const consoleErrors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') consoleErrors.push(message.text());
  });
  page.on('pageerror', (error) => consoleErrors.push(error.message));
  return { context, page, consoleErrors };
}

export async function login(page: Page, email: string, password = DEMO_PASSWORD) {
  const journal = watchPage(page);
  await page.goto('/');
  try {
    await page.getByLabel('Adresse e-mail').waitFor({ timeout: 20_000 });
  } catch (error) {
    // Never seen alone, seen once in a while in a full run: say what the page was doing.
    throw new Error(`Le formulaire de connexion n’est pas apparu.\n${await journal.describe()}`, { cause: error });
  } finally {
    journal.stop();
  }
  await page.getByLabel('Adresse e-mail').fill(email);
  await page.getByLabel(/^Mot de passe/).fill(password);
  await page.getByRole('button', { name: 'Se connecter' }).click();
  await page.waitForURL('**/dashboard');
}

/** What a page asked, answered and logged since the call: to explain a page that never showed. */
function watchPage(page: Page) {
  const started = Date.now();
  const events: string[] = [];
  const at = () => `${String(Date.now() - started).padStart(6)} ms`;
  const pending = new Map<object, string>();
  const onRequest = (request: Request) => {
    pending.set(request, `${request.method()} ${request.url()}`);
    events.push(`${at()} → ${request.method()} ${request.url()}`);
  };
  const onFinished = (request: Request) => {
    pending.delete(request);
    void request.response().then((response) => events.push(`${at()} ← ${response?.status() ?? '?'} ${request.url()}`));
  };
  const onFailed = (request: Request) => {
    pending.delete(request);
    events.push(`${at()} ✗ ${request.url()} ${request.failure()?.errorText ?? ''}`);
  };
  const onConsole = (message: ConsoleMessage) => events.push(`${at()} console.${message.type()}: ${message.text()}`);
  const onError = (error: Error) => events.push(`${at()} pageerror: ${error.message}`);
  const onNavigated = (frame: Frame) => {
    if (frame === page.mainFrame()) events.push(`${at()} navigated to ${frame.url()}`);
  };
  page.on('request', onRequest);
  page.on('requestfinished', onFinished);
  page.on('requestfailed', onFailed);
  page.on('console', onConsole);
  page.on('pageerror', onError);
  page.on('framenavigated', onNavigated);
  return {
    stop() {
      page.off('request', onRequest);
      page.off('requestfinished', onFinished);
      page.off('requestfailed', onFailed);
      page.off('console', onConsole);
      page.off('pageerror', onError);
      page.off('framenavigated', onNavigated);
    },
    async describe() {
      const text = await page
        .evaluate(() => document.body?.innerText.slice(0, 400) ?? '(pas de body)')
        .catch((e: Error) => `(page illisible : ${e.message})`);
      mkdirSync(SCREENSHOTS, { recursive: true });
      await page.screenshot({ path: path.join(SCREENSHOTS, `login-failure-${Date.now()}.png`) }).catch(() => undefined);
      return [
        `URL : ${page.url()}`,
        `Texte : ${text}`,
        `En attente : ${[...pending.values()].join(', ') || 'rien'}`,
        ...events,
      ].join('\n');
    },
  };
}

export async function screenshot(page: Page, name: string) {
  mkdirSync(SCREENSHOTS, { recursive: true });
  await page.screenshot({ path: path.join(SCREENSHOTS, `${name}.png`), fullPage: true });
}

/**
 * No serious or critical accessibility violation on the current page, read once its transitions
 * have ended: a dialog still fading in has the contrast of half its opacity (a false failure on a
 * loaded machine). Endless animations (progress bars, skeletons) are not waited for. A dialog whose
 * chunk is still loading can start its fade after that wait: a page with violations is read again,
 * up to three times a second apart, and the last reading decides (a real violation stays).
 */
export async function expectAccessible(page: Page) {
  let blocking: string[] = [];
  for (let reading = 0; reading < 4; reading += 1) {
    if (reading > 0) await page.waitForTimeout(1_000);
    await page
      .waitForFunction(
        () => document.getAnimations().every((a) => a.playState !== 'running' || a.effect?.getComputedTiming().iterations === Infinity),
        undefined,
        { timeout: 5_000 },
      )
      .catch(() => undefined); // still moving after 5 s: analysed as it is, the check decides
    const results = await new AxeBuilder({ page }).analyze();
    blocking = results.violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => `${v.id} (${v.impact}): ${v.help} — ${v.nodes.map((n) => n.target.join(' ')).slice(0, 3).join(' | ')}`);
    if (blocking.length === 0) break;
  }
  expect(blocking).toEqual([]);
}

/** A shape a test picture is made of: a filled rectangle [x, y, width, height] or disc [x, y, radius]. */
export type DrawnShape = { fill: string; rect: [number, number, number, number] } | { fill: string; disc: [number, number, number] };

/** A PNG of `width` × `height` drawn by the page's canvas (transparent where no shape is). */
export async function drawnPng(page: Page, width: number, height: number, shapes: DrawnShape[]): Promise<Buffer> {
  const dataUrl = await page.evaluate(
    ({ width, height, shapes }) => {
      const canvas = document.createElement('canvas');
      canvas.width = width;
      canvas.height = height;
      const context = canvas.getContext('2d')!;
      for (const shape of shapes) {
        context.fillStyle = shape.fill;
        if ('rect' in shape) context.fillRect(...shape.rect);
        else {
          context.beginPath();
          context.arc(shape.disc[0], shape.disc[1], shape.disc[2], 0, Math.PI * 2);
          context.fill();
        }
      }
      return canvas.toDataURL('image/png');
    },
    { width, height, shapes },
  );
  return Buffer.from(dataUrl.split(',')[1]!, 'base64');
}

/** A wide logo on a transparent background (a blue band and an orange disc). */
export const logoPng = (page: Page) =>
  drawnPng(page, 900, 300, [
    { fill: '#1f5fbf', rect: [200, 110, 650, 80] },
    { fill: '#e07020', disc: [120, 150, 100] },
  ]);
