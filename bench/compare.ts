/**
 * A/B comparison of this tree's server with another checkout's (e.g. `git worktree add ../avant <commit>`
 * then `npm ci` there), both on the bench database, each list measured alternately A, B, B, A…
 * so that the machine's drift weighs on both alike:
 *   BENCH_COMPARE_WITH=../avant BENCH_COMPARE_URLS='/api/driver|/api/sinister?search=B0042' [BENCH_COMPARE_FRESH=1] \
 *   node --import tsx --conditions=source bench/compare.ts
 * (`npm run build -w packages/contract -w apps/api` in both checkouts first: each runs its built server.)
 * Prints req/s of each side and the server's CPU time per request (µs), which the machine's
 * neighbours disturb less than the throughput.
 */
import { fork } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import autocannon from 'autocannon';
import { TYPICAL_DOMAIN } from './typical.js';
const url = 'postgres://postgres@127.0.0.1:5432/flotte_bench';
const trees = { A: process.env.BENCH_COMPARE_WITH ?? '', B: new URL('..', import.meta.url).pathname } as const;
if (!trees.A) throw new Error('BENCH_COMPARE_WITH: the other checkout');
const env = (port: number) => ({ ...process.env, DATABASE_URL: url, PORT: String(port), APP_SECRET: 'bench-secret-0123456789-0123456789-xx', LOG_LEVEL: 'silent', SEED_DEMO: 'false' });
const servers: Record<string, { origin: string; token: string; kill: () => void; pid: number }> = {};
/** The server process's CPU time so far, in ms (utime + stime of /proc/<pid>/stat): less sensitive than req/s to the machine's neighbours. */
const cpuMs = (pid: number) => {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
};
let port = 3950;
for (const [k, dir] of Object.entries(trees)) {
  const p = port++;
  // The built server when the checkout has it (build its contract and API first), its sources through tsx otherwise.
  const built = existsSync(`${dir}/bench/server.mjs`);
  const child = built
    ? fork(`${dir}/bench/server.mjs`, [], { cwd: dir, env: { ...env(p), BENCH_TYPICAL_DOMAIN: TYPICAL_DOMAIN } })
    : fork(`${dir}/bench/server.ts`, [], { cwd: dir, execArgv: ['--import', 'tsx', '--conditions=source'], env: env(p) });
  await new Promise<void>((res, rej) => { child.once('message', () => res()); child.once('exit', (c) => rej(new Error(`exit ${c}`))); });
  const origin = `http://127.0.0.1:${p}`;
  const login = await fetch(`${origin}/api/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: 'bench@flotte.fr', password: 'Bench-motdepasse-1' }) });
  const token = ((await login.json()) as { tokens: { access_token: string } }).tokens.access_token;
  servers[k] = { origin, token, kill: () => child.kill('SIGTERM'), pid: child.pid! };
}
const endpoints = (process.env.BENCH_COMPARE_URLS ?? '/api/driver').split('|');
const D = Number(process.env.BENCH_COMPARE_SECONDS ?? 4), ROUNDS = Number(process.env.BENCH_COMPARE_ROUNDS ?? 3), fresh = process.env.BENCH_COMPARE_FRESH === '1';
const run = (k: string, path: string, duration: number) =>
  autocannon({ url: servers[k]!.origin + path, connections: 50, duration, headers: { authorization: `Bearer ${servers[k]!.token}`, ...(fresh ? { 'cache-control': 'no-cache' } : {}) } });
for (const path of endpoints) {
  await run('A', path, 2); await run('B', path, 2);
  const sum: Record<string, number[]> = { A: [], B: [] };
  const cpu: Record<string, { ms: number; requests: number }> = { A: { ms: 0, requests: 0 }, B: { ms: 0, requests: 0 } };
  for (let r = 0; r < ROUNDS; r++) for (const k of (r % 2 ? ['B', 'A'] : ['A', 'B'])) {
    await new Promise((res) => setTimeout(res, 500));
    const before = cpuMs(servers[k]!.pid);
    const result = await run(k, path, D);
    cpu[k]!.ms += cpuMs(servers[k]!.pid) - before;
    cpu[k]!.requests += result.requests.total;
    sum[k]!.push(result.requests.average);
  }
  const mean = (a: number[]) => a.reduce((x, y) => x + y, 0) / a.length;
  const perRequest = (k: string) => (1000 * cpu[k]!.ms) / cpu[k]!.requests;
  console.log(
    `| ${fresh ? 'sans cache' : 'relue'} | \`${path}\` | ${Math.round(mean(sum.A!))} | ${Math.round(mean(sum.B!))} | ${Math.round((100 * mean(sum.B!)) / mean(sum.A!))} % | ${Math.round(perRequest('A'))} | ${Math.round(perRequest('B'))} | ${Math.round((100 * perRequest('B')) / perRequest('A'))} % |`,
  );
}
for (const s of Object.values(servers)) s.kill();
process.exit(0);
