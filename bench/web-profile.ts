/**
 * Where a page's cold load spends the main thread (issue 10: the blocking time of the first
 * render): the built server as `npm start` runs it, Chromium at a phone's width with the CPU
 * slowed as Lighthouse's mobile preset does (×4, or BENCH_WEB_CPU), a CPU profile from the
 * navigation until the page is quiet, then the self time summed by script file and by function,
 * and the long tasks (over 50 ms) with their start. Not a score: a table to decide what to change.
 * Built with source maps (`npx vite build --sourcemap` in apps/web), the self time is also summed
 * by package (`@mui/material`, `@emotion/…`, `react-dom`) and by source file of the app.
 *
 *   node --import tsx bench/web-profile.ts            # /vehicules
 *   BENCH_WEB_PAGES=/dashboard,/drivers node --import tsx bench/web-profile.ts
 *   BENCH_WEB_PROFILE_DIR=/tmp node --import tsx bench/web-profile.ts   # also writes _vehicules.cpuprofile
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { originalPositionFor, TraceMap } from '@jridgewell/trace-mapping';
import { chromium } from 'playwright-core';
import { refreshCookie, selectedPages, startWebServer } from './web-pages.js';

type ProfileNode = { id: number; callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number }; hitCount?: number };
type Profile = { nodes: ProfileNode[]; samples: number[]; timeDeltas: number[]; startTime: number; endTime: number };

const CPU = Number(process.env.BENCH_WEB_CPU ?? 4);
const TOP = Number(process.env.BENCH_WEB_TOP ?? 25);

/** The file part of a script URL (`/assets/index-abc.js`), or what V8 calls a node without one. */
function fileOf(url: string, functionName: string): string {
  if (!url) return functionName === '(garbage collector)' || functionName === '(program)' || functionName === '(idle)' ? functionName : '(native)';
  try {
    return new URL(url).pathname;
  } catch {
    return url;
  }
}

const ASSETS = path.resolve(import.meta.dirname, '../apps/web/dist');
const maps = new Map<string, TraceMap | null>();

/** The package or app file a position of a built file comes from, when the build left its map. */
function originalOf(file: string, line: number, column: number) {
  if (!maps.has(file)) {
    const mapFile = path.join(ASSETS, `${file}.map`);
    maps.set(file, existsSync(mapFile) ? new TraceMap(readFileSync(mapFile, 'utf8')) : null);
  }
  const map = maps.get(file);
  return map ? originalPositionFor(map, { line: line + 1, column }) : null;
}

function sourceOf(file: string, line: number, column: number): string | null {
  const original = originalOf(file, line, column);
  if (!original) return null;
  const source = original.source;
  if (!source) return '(sans source)';
  const modules = source.lastIndexOf('node_modules/');
  if (modules >= 0) {
    const [scope, name] = source.slice(modules + 'node_modules/'.length).split('/');
    return scope!.startsWith('@') ? `${scope}/${name}` : scope!;
  }
  return source.replace(/^(\.\.\/)+/, '');
}

/** A sampled function, named as its source map says when the build left one: `name source:line`. */
function functionLabel({ functionName, url, lineNumber, columnNumber }: ProfileNode['callFrame']): string {
  const file = fileOf(url, functionName);
  const original = url ? originalOf(file, lineNumber, columnNumber) : null;
  return original?.source
    ? `${original.name ?? (functionName || '(anonyme)')} ${original.source.replace(/^(\.\.\/)+/, '')}:${original.line}`
    : `${functionName || '(anonyme)'} ${url ? `${file}:${lineNumber + 1}:${columnNumber + 1}` : ''}`.trim();
}

/** The `count` largest entries, as `name ms, name ms`. */
const topOf = (map: Map<string, number>, count: number) =>
  [...map.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, count)
    .map(([name, ms]) => `${name} ${ms.toFixed(0)}`)
    .join(', ');

function table(title: string, rows: [string, number][], total: number) {
  console.log(`\n${title}`);
  console.log('| | ms | % |');
  console.log('|---|---:|---:|');
  for (const [name, ms] of rows.slice(0, TOP)) console.log(`| ${name.replaceAll('|', '\\|')} | ${ms.toFixed(0)} | ${((100 * ms) / total).toFixed(1)} |`);
}

async function main() {
  const pages = process.env.BENCH_WEB_PAGES ? selectedPages() : selectedPages().filter((page) => page.path === '/vehicules');
  const server = await startWebServer('flotte-web-profile-');
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: ['--no-sandbox'] });
  try {
    for (const page of pages) {
      const context = await browser.newContext({ viewport: { width: 412, height: 823 }, deviceScaleFactor: 1.75, isMobile: true, hasTouch: true, locale: 'fr-FR' });
      if (page.loggedIn) {
        const [name, value] = (await refreshCookie(server.baseUrl)).split('=') as [string, string];
        await context.addCookies([{ name, value, url: server.baseUrl }]);
      }
      const tab = await context.newPage();
      const cdp = await context.newCDPSession(tab);
      await cdp.send('Emulation.setCPUThrottlingRate', { rate: CPU });
      await cdp.send('Profiler.enable');
      await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
      // The long tasks as the page sees them (a script: this file is typed for Node, not the DOM).
      await tab.addInitScript({
        content: `window.__longTasks = []; new PerformanceObserver((list) => { for (const entry of list.getEntries()) window.__longTasks.push({ start: Math.round(entry.startTime), duration: Math.round(entry.duration) }); }).observe({ type: 'longtask', buffered: true });`,
      });
      await cdp.send('Profiler.start');
      await tab.goto(`${server.baseUrl}${page.path}`, { waitUntil: 'load' });
      await tab.waitForLoadState('networkidle');
      await tab.waitForTimeout(1_000);
      const { profile } = (await cdp.send('Profiler.stop')) as unknown as { profile: Profile };
      // The raw profile, to open in DevTools' Performance panel or to read further.
      if (process.env.BENCH_WEB_PROFILE_DIR) writeFileSync(path.join(process.env.BENCH_WEB_PROFILE_DIR, `${page.path.replaceAll('/', '_') || '_'}.cpuprofile`), JSON.stringify(profile));
      const longTasks = (await tab.evaluate('window.__longTasks')) as { start: number; duration: number }[];
      const paints = (await tab.evaluate(`performance.getEntriesByType('paint').map((entry) => entry.name + ' ' + Math.round(entry.startTime) + ' ms')`)) as string[];

      // Self time per node: each sample's delta goes to the node it landed in.
      const byId = new Map(profile.nodes.map((node) => [node.id, node]));
      const self = new Map<number, number>();
      profile.samples.forEach((id, index) => self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[index] ?? 0) / 1_000));
      const byFile = new Map<string, number>();
      const byFunction = new Map<string, number>();
      const bySource = new Map<string, number>();
      let busy = 0;
      for (const [id, ms] of self) {
        const { functionName, url, lineNumber, columnNumber } = byId.get(id)!.callFrame;
        if (functionName === '(idle)') continue;
        busy += ms;
        const file = fileOf(url, functionName);
        byFile.set(file, (byFile.get(file) ?? 0) + ms);
        const name = functionLabel(byId.get(id)!.callFrame);
        byFunction.set(name, (byFunction.get(name) ?? 0) + ms);
        const source = url ? sourceOf(file, lineNumber, columnNumber) : file;
        if (source) bySource.set(source, (bySource.get(source) ?? 0) + ms);
      }
      const sorted = (map: Map<string, number>) => [...map.entries()].sort((a, b) => b[1] - a[1]);

      // The busy stretches of the profile (samples outside « idle » back to back): over 50 ms, a
      // long task, with what it ran — by package or source file when the build left its maps.
      const stretches: { start: number; ms: number; by: Map<string, number>; functions: Map<string, number> }[] = [];
      let clock = 0;
      let current: (typeof stretches)[number] | null = null;
      profile.samples.forEach((id, index) => {
        const delta = (profile.timeDeltas[index] ?? 0) / 1_000;
        clock += delta;
        const { functionName, url, lineNumber, columnNumber } = byId.get(id)!.callFrame;
        if (functionName === '(idle)') {
          if (current && current.ms > 50) stretches.push(current);
          current = null;
          return;
        }
        current ??= { start: clock - delta, ms: 0, by: new Map(), functions: new Map() };
        current.ms += delta;
        const file = fileOf(url, functionName);
        const source = (url ? sourceOf(file, lineNumber, columnNumber) : null) ?? file;
        current.by.set(source, (current.by.get(source) ?? 0) + delta);
        const name = functionLabel(byId.get(id)!.callFrame);
        current.functions.set(name, (current.functions.get(name) ?? 0) + delta);
      });
      if (current && (current as { ms: number }).ms > 50) stretches.push(current);
      console.log('\nBusy stretches over 50 ms (from the profile’s start): what each ran');
      for (const stretch of stretches) {
        console.log(`- ${stretch.start.toFixed(0)} ms, ${stretch.ms.toFixed(0)} ms: ${topOf(stretch.by, 6)}`);
        console.log(`  functions: ${topOf(stretch.functions, 8)}`);
      }
      const blocking = longTasks.reduce((sum, task) => sum + Math.max(0, task.duration - 50), 0);
      console.log(`\n## ${page.path} (CPU ×${CPU}, 412 px)`);
      console.log(`main thread busy ${busy.toFixed(0)} ms; ${paints.join(', ')}; long tasks: ${longTasks.map((task) => `${task.duration} ms at ${task.start}`).join(', ') || 'none'} (blocking ${blocking} ms)`);
      table('Self time by file', sorted(byFile), busy);
      if (bySource.size > [...bySource.keys()].filter((key) => key.startsWith('(')).length) table('Self time by package or source file (source maps)', sorted(bySource), busy);
      table('Self time by function', sorted(byFunction), busy);
      await context.close();
    }
  } finally {
    await browser.close();
    await server.stop();
  }
}

await main();
