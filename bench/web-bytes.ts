/**
 * node --import tsx bench/web-bytes.ts: the JavaScript each page of `npm run bench:web` downloads
 * on a cold load, counted as Lighthouse counts it (`resource-summary`, transfer size: the brotli
 * body plus the response's headers), without Lighthouse: one load per page in headless Chromium
 * at Lighthouse's phone size (412 × 823), no throttling, on the built server (as bench/web.ts
 * starts it). Bytes are deterministic for a build, so this is the quick check while trimming; the
 * score needs `npm run bench:web`. Prints, per page, the number of script files, their bodies,
 * their headers and the total, and with BENCH_WEB_BYTES_FILES=true each file.
 *
 * BENCH_WEB_PAGES=/,/vehicules: a subset.
 */
import puppeteer from 'puppeteer-core';
import { refreshCookie, selectedPages, startWebServer } from './web-pages.js';

const CHROME_PATH = process.env.CHROME_PATH ?? '/usr/bin/chromium';

type Script = { url: string; transfer: number; headers: number; headersText: string };

async function main() {
  const pages = selectedPages();
  const server = await startWebServer('flotte-web-bytes-');
  const browser = await puppeteer.launch({ executablePath: CHROME_PATH, headless: true, args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'] });
  const rows: string[] = [];
  try {
    for (const page of pages) {
      const context = await browser.createBrowserContext();
      const tab = await context.newPage();
      await tab.setViewport({ width: 412, height: 823, deviceScaleFactor: 1.75, isMobile: true, hasTouch: true });
      if (page.loggedIn) await tab.setExtraHTTPHeaders({ Cookie: await refreshCookie(server.baseUrl) });
      const cdp = await tab.createCDPSession();
      await cdp.send('Network.enable');
      const headerBytes = new Map<string, number>();
      const headerTexts = new Map<string, string>();
      const scripts = new Map<string, Script>();
      const types = new Map<string, string>();
      cdp.on('Network.responseReceived', (e) => types.set(e.requestId, `${e.type}|${e.response.url}`));
      cdp.on('Network.responseReceivedExtraInfo', (e) => {
        headerBytes.set(e.requestId, (e.headersText ?? '').length);
        headerTexts.set(e.requestId, e.headersText ?? '');
      });
      cdp.on('Network.loadingFinished', (e) => {
        const [type, url] = (types.get(e.requestId) ?? '|').split('|');
        if (type === 'Script') scripts.set(e.requestId, { url: url ?? '', transfer: e.encodedDataLength, headers: headerBytes.get(e.requestId) ?? 0, headersText: headerTexts.get(e.requestId) ?? '' });
      });
      await tab.goto(`${server.baseUrl}${page.path}`, { waitUntil: 'networkidle0', timeout: 60_000 });
      await new Promise((r) => setTimeout(r, 1500));
      const final = new URL(tab.url()).pathname;
      const list = [...scripts.values()];
      const transfer = list.reduce((s, f) => s + f.transfer, 0);
      const headers = list.reduce((s, f) => s + f.headers, 0);
      rows.push(
        `| \`${page.path}\`${final !== page.path ? ` (fini sur ${final})` : ''} | ${list.length} | ${((transfer - headers) / 1000).toFixed(1)} | ${(headers / 1000).toFixed(1)} | ${list.length ? Math.round(headers / list.length) : 0} | ${transfer / 1000 > page.jsTargetKb ? '⚠ ' : ''}${(transfer / 1000).toFixed(1)} (≤ ${page.jsTargetKb}) |`,
      );
      if (process.env.BENCH_WEB_BYTES_FILES === 'true') {
        const sorted = list.sort((a, b) => b.transfer - a.transfer);
        for (const f of sorted) console.log(`${page.path}\t${f.transfer}\t${f.headers}\t${new URL(f.url).pathname}`);
        if (sorted[0]) console.log(`En-têtes de ${new URL(sorted[0].url).pathname} :\n${sorted[0].headersText}`);
      }
      await context.close();
    }
  } finally {
    await browser.close();
    await server.stop();
  }
  console.log(['| Page | Fichiers JS | Corps (kB) | En-têtes (kB) | En-têtes par fichier (octets) | Total, comme Lighthouse (kB) |', '|---|---:|---:|---:|---:|---:|', ...rows].join('\n'));
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
