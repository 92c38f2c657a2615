// Temporary A/B: the baseline tree's server and this tree's server on the same database, measured alternately.
import { fork } from 'node:child_process';
import autocannon from 'autocannon';
const url = 'postgres://postgres@127.0.0.1:5432/flotte_bench';
const trees = { A: '/work/baseline', B: '/work/main' } as const;
const env = (port: number) => ({ ...process.env, DATABASE_URL: url, PORT: String(port), APP_SECRET: 'bench-secret-0123456789-0123456789-xx', LOG_LEVEL: 'silent', SEED_DEMO: 'false' });
const servers: Record<string, { origin: string; token: string; kill: () => void }> = {};
let port = 3950;
for (const [k, dir] of Object.entries(trees)) {
  const p = port++;
  const child = fork(`${dir}/bench/server.ts`, [], { cwd: dir, execArgv: ['--import', 'tsx', '--conditions=source'], env: env(p) });
  await new Promise<void>((res, rej) => { child.once('message', () => res()); child.once('exit', (c) => rej(new Error(`exit ${c}`))); });
  const origin = `http://127.0.0.1:${p}`;
  const login = await fetch(`${origin}/api/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: 'bench@flotte.fr', password: 'Bench-motdepasse-1' }) });
  const token = ((await login.json()) as { tokens: { access_token: string } }).tokens.access_token;
  servers[k] = { origin, token, kill: () => child.kill('SIGTERM') };
}
const endpoints = (process.env.AB_ONLY ? process.env.AB_ONLY.split('|') : [
  '/api/driver', '/api/driver?search=conducteur4242&sortBy=-lastName', '/api/driver?search=martin&sortBy=firstName', '/api/vehicule',
  '/api/vehicule?search=AB-1&sortBy=-entryDate', '/api/vehicule?types=PL,VUL&start=2024-01-01&end=2024-12-31&sortBy=brand',
  '/api/sinister?startDate=2026-01-01&endDate=2026-11-22&sortBy=-sinisterDate', '/api/sinister?search=B0042&showDeclared=true&responsible=me',
]);
const D = Number(process.env.AB_D ?? 4), ROUNDS = Number(process.env.AB_ROUNDS ?? 2);
const run = (k: string, path: string, fresh: boolean, duration: number) =>
  autocannon({ url: servers[k]!.origin + path, connections: 50, duration, headers: { authorization: `Bearer ${servers[k]!.token}`, ...(fresh ? { 'cache-control': 'no-cache' } : {}) } });
const rows: string[] = [];
for (const fresh of [false, true]) for (const path of endpoints) {
  const slow = path.includes('B0042') && fresh;
  const d = slow ? 3 : D;
  await run('A', path, fresh, 2); await run('B', path, fresh, 2);
  const sum: Record<string, number[]> = { A: [], B: [] }; const p99: Record<string, number[]> = { A: [], B: [] };
  for (let r = 0; r < ROUNDS; r++) for (const k of (r % 2 ? ['B', 'A'] : ['A', 'B'])) {
    await new Promise((res) => setTimeout(res, slow ? 3000 : 500));
    const res = await run(k, path, fresh, d);
    sum[k]!.push(res.requests.average); p99[k]!.push(res.latency.p99);
    if (res.non2xx || res.errors) console.log('errors', k, path, res.non2xx, res.errors);
  }
  const mean = (a: number[]) => a.reduce((x, y) => x + y, 0) / a.length;
  const line = `| ${fresh ? 'sans cache' : 'relue'} | \`${path}\` | ${Math.round(mean(sum.A!))} | ${Math.round(mean(sum.B!))} | ${Math.round((100 * mean(sum.B!)) / mean(sum.A!))} % | ${Math.max(...p99.A!)} | ${Math.max(...p99.B!)} |`;
  console.log(line); rows.push(line);
}
console.log(rows.join('\n'));
for (const s of Object.values(servers)) s.kill();
process.exit(0);
