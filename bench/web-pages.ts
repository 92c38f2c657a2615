/**
 * What bench/web.ts (Lighthouse) and bench/web-bytes.ts (bytes only) measure, and how they reach
 * it: the pages of issue 10 with their JavaScript targets, the account of the logged-in ones, the
 * built server as `npm start` runs it (a temporary DATA_DIR with the demo seed, a random
 * APP_SECRET, a free port) and the refresh cookie a cold load presents.
 */
import { randomBytes } from 'node:crypto';
import { type BuiltServer, startBuiltServer } from '../e2e/support/built-server.js';

export const ACCOUNT = { email: process.env.BENCH_WEB_EMAIL ?? 'admin@demo.fr', password: process.env.DEMO_PASSWORD ?? 'Demo1234!' };

/** A page of issue 10, with its target for the JavaScript transferred on a cold load (kB = 1 000 bytes, as Vite prints them). */
export type WebPage = { path: string; label: string; loggedIn: boolean; jsTargetKb: number };
const PAGES: WebPage[] = [
  { path: '/', label: '`/` (connexion)', loggedIn: false, jsTargetKb: 100 },
  { path: '/dashboard', label: '`/dashboard`', loggedIn: true, jsTargetKb: 200 },
  { path: '/vehicules', label: '`/vehicules`', loggedIn: true, jsTargetKb: 200 },
  { path: '/sinisters', label: '`/sinisters`', loggedIn: true, jsTargetKb: 200 },
  { path: '/drivers', label: '`/drivers`', loggedIn: true, jsTargetKb: 200 },
];

/** The pages to measure: all, or BENCH_WEB_PAGES=/,/vehicules while developing. */
export function selectedPages(): WebPage[] {
  const selected = process.env.BENCH_WEB_PAGES?.split(',').map((p) => p.trim());
  const pages = selected ? PAGES.filter((p) => selected.includes(p.path)) : PAGES;
  if (pages.length === 0) throw new Error(`BENCH_WEB_PAGES : aucune page connue (${PAGES.map((p) => p.path).join(', ')})`);
  return pages;
}

export function startWebServer(dataDirPrefix: string): Promise<BuiltServer> {
  return startBuiltServer({ dataDirPrefix, timeoutMs: 120_000, env: () => ({ APP_SECRET: randomBytes(48).toString('base64url') }) });
}

/** Logs in through the API and returns the refresh cookie, as the browser would keep it (one cookie serves one load: the refresh rotates it). */
export async function refreshCookie(baseUrl: string): Promise<string> {
  const response = await fetch(`${baseUrl}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(ACCOUNT),
  });
  if (!response.ok) throw new Error(`connexion de ${ACCOUNT.email} refusée : ${response.status} ${await response.text()}`);
  const cookie = response.headers.getSetCookie().find((c) => c.startsWith('flotte_refresh='));
  if (!cookie) throw new Error('la connexion ne pose pas le cookie flotte_refresh');
  return cookie.slice(0, cookie.indexOf(';') === -1 ? undefined : cookie.indexOf(';'));
}
