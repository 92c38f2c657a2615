import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { CSRF_HEADER, CSRF_HEADER_VALUE } from '@flotte/contract';
import { runScanner } from './run-scanner.js';
import type { Target } from './targets.js';

export const SQLMAP = '/usr/bin/sqlmap';

/** How one target is scanned. */
export type Depth = {
  /** The full level-3/risk-2 test list on every parameter; otherwise `--smart` (heuristics first). */
  full: boolean;
  /** `--dbms PostgreSQL`: the payloads of the one database the product runs on. */
  postgresOnly: boolean;
  /** Also the headers level 3 adds (User-Agent, Referer). */
  headers: boolean;
};

export type SqlmapResult = {
  target: Target;
  depth: Depth;
  dir: string;
  code: number | string;
  seconds: number;
  /** Requests sqlmap sent (its traffic file). */
  requests: number;
  /** The parameters this run was asked to test. */
  expected: string[];
  /** Parameters sqlmap reports having tested, named as the target names them (`query search`, `header User-Agent`). */
  tested: string[];
  /** Anything sqlmap calls injectable or vulnerable, with the parameter. */
  findings: string[];
  /** Hints that are not SQL injection (XSS, file inclusion heuristics): printed, not failed. */
  hints: string[];
  critical: string[];
};

/**
 * The path parameters of a target carry sqlmap's custom marks (`*`): a path has no parameter
 * sqlmap would find by itself. A marked URL is tested at its marks only, so a run scans either
 * the path (its marks, in order) or the query and the body (by name, with `-p`), never both.
 */
function pathMarked(target: Target): { url: string; names: string[] } {
  const names: string[] = [];
  const [pathPart, queryPart] = target.url.split('?') as [string, string | undefined];
  const template = target.path.split('/');
  const segments = pathPart.split('/').map((segment, i) => {
    const name = /^\{(.+)\}$/.exec(template[i] ?? '')?.[1];
    if (!name) return segment;
    names.push(`path ${name}`);
    return `${segment}*`;
  });
  return { url: `${segments.join('/')}${queryPart ? `?${queryPart}` : ''}`, names };
}

/** sqlmap's name of a parameter → the target's: `GET parameter 'search'` → `query search`, the path's `#2*` → its second parameter. */
function nameOf(place: string, parameter: string, pathNames: string[]): string {
  const mark = /^(?:JSON )?#(\d+)\*$/.exec(parameter);
  if (mark && pathNames.length > 0) return pathNames[Number(mark[1]) - 1] ?? `path ${parameter}`;
  // Values inside a nested object or array of the body: sqlmap marks and numbers them itself.
  if (mark) return `body (valeur imbriquée ${parameter.replace(/^JSON /, '')})`;
  if (/^GET$/.test(place.trim())) return `query ${parameter}`;
  if (parameter.startsWith('JSON ')) return `body ${parameter.slice(5)}`;
  if (/User-Agent|Referer|Host|Cookie/i.test(parameter)) return `header ${parameter}`;
  return `${place.trim()} ${parameter}`;
}

/**
 * Scans some parameters of one target: its path parameters (all `path …`, marked), or some of its
 * query and body parameters, named with `-p` — below level 4, sqlmap would otherwise ignore those
 * whose name holds « token » (taken for anti-CSRF tokens): the links' tokens here, which reach SQL
 * like any other value. A target whose answer changes at each call (a create answers a new id)
 * is scanned again comparing HTTP codes (`--code`), as sqlmap gives up on it otherwise.
 */
export async function runSqlmap(base: string, token: string, target: Target, depth: Depth, dir: string, only: string[]): Promise<SqlmapResult> {
  const first = await sqlmapOnce(base, token, target, depth, dir, only, undefined);
  const status = /^HTTP response \[#1\] \((\d{3})/m.exec(first.traffic)?.[1];
  if (first.result.tested.length > 0 || !/heavily dynamic/.test(first.output) || !status) return first.result;
  const second = await sqlmapOnce(base, token, target, depth, path.join(dir, `code-${status}`), only, Number(status));
  return { ...second.result, requests: first.result.requests + second.result.requests, seconds: first.result.seconds + second.result.seconds, hints: [`contenu très variable : comparé par code HTTP (--code=${status})`, ...second.result.hints] };
}

async function sqlmapOnce(base: string, token: string, target: Target, depth: Depth, dir: string, only: string[], matchCode?: number) {
  mkdirSync(dir, { recursive: true });
  const onPath = only.every((p) => p.startsWith('path '));
  const marks = onPath ? pathMarked(target) : { url: target.url, names: [] };
  const data = target.body ? JSON.stringify(target.body) : undefined;
  const names = only.map((p) => p.replace(/^(query|body) /, ''));
  const selection = onPath ? (depth.headers ? [] : ['--skip', 'user-agent,referer']) : ['-p', [...names, ...(depth.headers ? ['user-agent', 'referer'] : [])].join(',')];
  const headers = [`Authorization: Bearer ${token}`, `${CSRF_HEADER}: ${CSRF_HEADER_VALUE}`, ...(data ? ['Content-Type: application/json'] : [])];
  const args = [
    '-u',
    `${base}${marks.url}`,
    ...(data ? ['--data', data, '--method', target.method] : target.method !== 'GET' ? ['--method', target.method] : []),
    '--headers',
    headers.join('\n'),
    '--batch',
    '--level',
    '3',
    '--risk',
    '2',
    '--threads',
    '10',
    ...(depth.full ? [] : ['--smart']),
    ...(depth.postgresOnly ? ['--dbms', 'PostgreSQL'] : []),
    ...selection,
    ...(matchCode ? ['--code', String(matchCode)] : []),
    // The routes answer 401 (a refused login) or 404 (an unknown id, a route the role cannot see) to the
    // example itself: sqlmap would stop at its first request instead of comparing the answers.
    '--ignore-code',
    '401,404',
    '--output-dir',
    dir,
    '-t',
    path.join(dir, 'traffic.txt'),
    '--flush-session',
    '--disable-coloring',
  ];
  const { code: exit, seconds, output } = await runScanner(SQLMAP, args, dir, token);
  const traffic = path.join(dir, 'traffic.txt');
  const trafficText = existsSync(traffic) ? readFileSync(traffic, 'utf8') : '';
  const requests = (trafficText.match(/^HTTP request \[#\d+\]/gm) ?? []).length;

  const tested = new Set<string>();
  for (const m of output.matchAll(/(?:testing for SQL injection on|heuristic \(basic\) test shows that) (?:(.+?) )?parameter '([^']+)'/g)) tested.add(nameOf(m[1] ?? '', m[2]!, marks.names));
  // sqlmap's verdict is its final block « sqlmap identified the following injection point(s) »,
  // one « Parameter: name (place) » each. A positive heuristic, or a technique that « appears »
  // to work and that sqlmap then rules out as a false positive, is a hint; a heuristic naming a
  // database is a finding (the database's error message reached the answer).
  const findings = new Set<string>();
  for (const m of output.matchAll(/^Parameter: (.+) \((.+)\)$/gm)) findings.add(`${nameOf(m[2]!, m[1]!, marks.names)} : injectable (${m[2]})`);
  if (/sqlmap identified the following injection point/.test(output) && findings.size === 0) findings.add('sqlmap identified the following injection point(s) (voir stdout.txt)');
  for (const m of output.matchAll(/heuristic \(basic\) test shows that (.+?) parameter '([^']+)' (might be injectable \(possible DBMS[^\n]*)/g)) findings.add(`${nameOf(m[1]!, m[2]!, marks.names)} : ${m[3]}`);
  const hints = [
    ...[...output.matchAll(/heuristic \(basic\) test shows that (.+?) parameter '([^']+)' might be injectable$/gm)].map((m) => `${nameOf(m[1]!, m[2]!, marks.names)} : heuristique positive, tests complets négatifs`),
    ...[...output.matchAll(/((?:\(custom\) )?\w+) parameter '([^']+)' appears to be ('[^']+' injectable)/g)].map((m) => `${nameOf(m[1]!, m[2]!, marks.names)} : ${m[3]} selon un test, écarté par sqlmap`),
    ...[...output.matchAll(/heuristic \((?:XSS|FI)\) test shows that (.+?) parameter '([^']+)' (might be vulnerable to [^\n]+)/g)].map((m) => `${nameOf(m[1]!, m[2]!, marks.names)} : ${m[3]}`),
  ];
  const critical = [...output.matchAll(/\[CRITICAL\] ([^\n]+)/g)].map((m) => m[1]!);
  const result: SqlmapResult = { target, depth, dir, code: exit, seconds, requests, expected: only, tested: [...tested], findings: [...findings], hints, critical };
  return { result, output, traffic: trafficText };
}

/** Runs the tasks with at most `width` at a time, in their order. */
export async function pool<T, R>(items: T[], width: number, task: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(width, items.length) }, async () => {
      while (next < items.length) {
        const index = next++;
        results[index] = await task(items[index]!, index);
      }
    }),
  );
  return results;
}
