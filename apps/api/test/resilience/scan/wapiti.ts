import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { CSRF_HEADER, CSRF_HEADER_VALUE } from '@flotte/contract';
import { runScanner } from './run-scanner.js';

export const WAPITI = '/usr/bin/wapiti';

/**
 * Every module wapiti 3.0.4 runs by default, without `ssrf`: it asks an outside endpoint
 * (wapiti3.ovh) to witness the forged requests, which a CI runner must not depend on.
 */
export const WAPITI_MODULES = 'common,-ssrf';

export type WapitiFinding = { category: string; level: number; method: string; path: string; parameter: string; info: string };
export type WapitiResult = {
  code: number | string;
  seconds: number;
  report: string;
  findings: WapitiFinding[];
  /** Modules stopped by --max-attack-time before they had attacked every URL: said in the table. */
  cutShort: string[];
  modules: string[];
  output: string;
};

type Report = {
  vulnerabilities: Record<string, Omit<WapitiFinding, 'category'>[]>;
  anomalies: Record<string, Omit<WapitiFinding, 'category'>[]>;
};

export async function runWapiti(base: string, token: string, starts: string[], dir: string, bounds: { scanSeconds: number; attackSeconds: number }): Promise<WapitiResult> {
  mkdirSync(dir, { recursive: true });
  const report = path.join(dir, 'wapiti.json');
  const args = [
    '-u',
    `${base}/api/`,
    ...starts.flatMap((url) => ['-s', `${base}${url}`]),
    '-H',
    `Authorization: Bearer ${token}`,
    '-H',
    `${CSRF_HEADER}: ${CSRF_HEADER_VALUE}`,
    '-m',
    WAPITI_MODULES,
    // The start points are the routes: no crawling beyond them (a JSON API has no links to follow).
    '-d',
    '0',
    '--flush-session',
    '--store-session',
    path.join(dir, 'session'),
    '--store-config',
    path.join(dir, 'config'),
    '--max-scan-time',
    String(bounds.scanSeconds),
    '--max-attack-time',
    String(bounds.attackSeconds),
    '-f',
    'json',
    '-o',
    report,
    '--no-bugreport',
    '-v',
    '1',
  ];
  const { code, seconds, output } = await runScanner(WAPITI, args, dir, token);
  if (!existsSync(report)) return { code, seconds, report, findings: [], cutShort: [], modules: [], output };
  const parsed = JSON.parse(readFileSync(report, 'utf8')) as Report;
  const findings = (['vulnerabilities', 'anomalies'] as const).flatMap((section) =>
    Object.entries(parsed[section] ?? {}).flatMap(([category, entries]) => entries.map((entry) => ({ ...entry, category, level: Number(entry.level) }))),
  );
  const cutShort = [...output.matchAll(/Max attack time was reached for module (\w+)|Stopping (\w+) module because max attack time/gi)].map((m) => m[1] ?? m[2]!);
  const modules = [...output.matchAll(/\[\*\] Launching module (\w+)/g)].map((m) => m[1]!);
  return { code, seconds, report, findings, cutShort, modules, output };
}
