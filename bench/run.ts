/**
 * npm run bench: seeds one organization with 100 000 vehicles, 100 000 drivers and 1 000 000
 * claims (kept between runs in the database `flotte_bench`), then measures with autocannon
 * (50 connections, 10 s each, after a warm-up of each endpoint) the authenticated list endpoints,
 * each between two measures of the bare ceiling route, printing req/s, p50, p99 and the ratio to
 * the mean of those two ceilings.
 * Targets: ≥ 50 % of the ceiling, p99 < 50 ms.
 *
 * Each list is measured twice: as users meet it (the same list read again while nothing was
 * written: the server checks the register's version and serves its copy, decision 007), and
 * with `Cache-Control: no-cache`, which makes the server compute every page afresh.
 */
import { fork } from 'node:child_process';
import { readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import autocannon from 'autocannon';
import pg from 'pg';
import { openPostgres } from '../apps/api/src/db/client.js';
import { withSystem } from '../apps/api/src/db/scope.js';
import { createOrganization, createUser, linkUser } from '../apps/api/src/seed/factories.js';

const here = import.meta.dirname;
const baseUrl = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const DB_NAME = 'flotte_bench';
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const DURATION = Number(process.env.BENCH_DURATION ?? 10);
const WARMUP = Number(process.env.BENCH_WARMUP ?? 5);
const PASSWORD = 'Bench-motdepasse-1';

function withDatabase(url: string, database: string) {
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.toString();
}

async function prepareDatabase(): Promise<string> {
  const admin = new pg.Client({ connectionString: baseUrl });
  await admin.connect();
  const url = withDatabase(baseUrl, DB_NAME);
  const exists = (await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [DB_NAME])).rowCount === 1;
  if (exists && process.env.BENCH_RESEED !== 'true') {
    const probe = new pg.Client({ connectionString: url });
    await probe.connect();
    // Complete only if the last step (the claims) went through; a half-seeded base is recreated.
    const seeded = await probe
      .query<{ n: string }>('SELECT count(*) AS n FROM sinisters')
      .then((r) => Number(r.rows[0]?.n) === 1_000_000)
      .catch(() => false);
    await probe.end();
    if (seeded) {
      await admin.end();
      console.log(`Base ${DB_NAME} déjà remplie : réutilisée (BENCH_RESEED=true pour la recréer).`);
      // Brings it to the current migrations, then fresh statistics (a migration may rewrite tables).
      await (await openPostgres(url, { max: 1 })).close();
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      await client.query('VACUUM ANALYZE');
      await client.end();
      return url;
    }
  }
  await admin.query(`DROP DATABASE IF EXISTS ${DB_NAME} WITH (FORCE)`);
  await admin.query(`CREATE DATABASE ${DB_NAME}`);
  await admin.end();

  const handle = await openPostgres(url, { max: 1 });
  const organizationUuid = await withSystem(handle.db, async (tx) => {
    const organization = await createOrganization(tx, { title: 'Transports Géants' });
    const user = await createUser(tx, { email: 'bench@flotte.fr', password: PASSWORD, roles: ['ADMIN'] });
    await linkUser(tx, organization.uuid, user.uuid);
    return organization.uuid;
  });
  await handle.close();

  const seed = new pg.Client({ connectionString: url });
  await seed.connect();
  const statements = readFileSync(path.join(here, 'seed.sql'), 'utf8')
    .split(/;\s*\n\s*\n/)
    .map((s) => s.replace(/^--.*$/gm, '').trim())
    .filter(Boolean);
  for (const statement of statements) {
    const started = Date.now();
    const result = await seed.query(statement, [organizationUuid]);
    console.log(`  ${result.rowCount} lignes insérées en ${((Date.now() - started) / 1000).toFixed(1)} s`);
  }
  console.log('  VACUUM ANALYZE…');
  await seed.query('VACUUM ANALYZE');
  await seed.end();
  return url;
}

type Result = { name: string; path: string; requests: number; p50: number; p99: number; errors: number; non2xx: number; ceiling?: number };

const CEILING_DURATION = Number(process.env.BENCH_CEILING_DURATION ?? 4);

async function run(url: string, duration: number, headers: Record<string, string>) {
  return autocannon({ url, connections: CONNECTIONS, duration, headers });
}

async function measure(name: string, url: string, headers: Record<string, string> = {}, duration = DURATION, warmup = WARMUP): Promise<Result> {
  // Warm-up: JIT, each pooled connection's prepared statements and plans, PostgreSQL's buffers.
  if (warmup > 0) {
    await run(url, warmup, headers);
    // Requests still running when the warm-up stops finish before the measure starts.
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
  const result = await run(url, duration, headers);
  return {
    name,
    path: new URL(url).pathname + new URL(url).search,
    requests: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.timeouts,
    non2xx: result.non2xx,
  };
}

async function main() {
  console.log('Préparation de la base de mesure (100 000 véhicules, 100 000 conducteurs, 1 000 000 sinistres)…');
  const databaseUrl = await prepareDatabase();
  const port = 3900 + Math.floor(Math.random() * 90);
  const server = fork(path.join(here, 'server.ts'), [], {
    execArgv: ['--import', 'tsx', '--conditions=source'],
    env: { ...process.env, DATABASE_URL: databaseUrl, PORT: String(port), APP_SECRET: 'bench-secret-0123456789-0123456789-xx', LOG_LEVEL: 'silent', SEED_DEMO: 'false' },
  });
  await new Promise<void>((resolve, reject) => {
    server.once('message', () => resolve());
    server.once('exit', (code) => reject(new Error(`serveur arrêté (${code})`)));
  });
  const origin = `http://127.0.0.1:${port}`;
  try {
    const login = await fetch(`${origin}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'bench@flotte.fr', password: PASSWORD }),
    });
    const token = ((await login.json()) as { tokens: { access_token: string } }).tokens.access_token;
    const endpoints: [string, string][] = [
      ['Conducteurs, page 1', '/api/driver'],
      ['Conducteurs, recherche + tri', '/api/driver?search=conducteur4242&sortBy=-lastName'],
      ['Conducteurs, recherche large + tri', '/api/driver?search=martin&sortBy=firstName'],
      ['Véhicules, page 1', '/api/vehicule'],
      ['Véhicules, recherche plaque + tri', '/api/vehicule?search=AB-1&sortBy=-entryDate'],
      ['Véhicules, catégories + période', '/api/vehicule?types=PL,VUL&start=2024-01-01&end=2024-12-31&sortBy=brand'],
      ['Sinistres, année + tri', '/api/sinister?startDate=2026-01-01&endDate=2026-11-22&sortBy=-sinisterDate'],
      ['Sinistres, recherche + filtres', '/api/sinister?search=B0042&showDeclared=true&responsible=me'],
    ];
    const auth = { authorization: `Bearer ${token}` };
    const ceilingUrl = `${origin}/bench/ceiling`;
    // This machine's speed drifts by ±30 % within minutes: each list is compared with the ceiling
    // measured just before and just after it, in the same run.
    const ceilings: Result[] = [await measure('Plafond : Fastify + pg, SELECT … LIMIT 10', ceilingUrl, {}, CEILING_DURATION)];
    const side = async (name: string, url: string, headers: Record<string, string>) => {
      const result = await measure(name, origin + url, headers);
      // A slow list leaves requests running after its measure: let them end first.
      await new Promise((resolve) => setTimeout(resolve, 2000));
      const after = await measure('Plafond', ceilingUrl, {}, CEILING_DURATION, 0);
      result.ceiling = (ceilings[ceilings.length - 1]!.requests + after.requests) / 2;
      ceilings.push(after);
      return result;
    };
    const repeated: Result[] = [];
    for (const [name, url] of endpoints) repeated.push(await side(name, url, auth));
    const fresh: Result[] = [];
    for (const [name, url] of endpoints) fresh.push(await side(`${name} (sans cache)`, url, { ...auth, 'cache-control': 'no-cache' }));

    const ceilingRates = ceilings.map((c) => c.requests);
    const ratio = (r: Result) => Math.round((100 * r.requests) / r.ceiling!);
    const row = (r: Result) =>
      `| ${r.name} | \`${r.path}\` | ${Math.round(r.requests)} | ${r.p50} | ${r.p99} | ${Math.round(r.ceiling!)} | ${ratio(r)} % | ${r.errors + r.non2xx} |`;
    const lines = [
      `| Mesure | Requête | req/s | p50 (ms) | p99 (ms) | plafond voisin (req/s) | % du plafond | erreurs |`,
      `|---|---|---:|---:|---:|---:|---:|---:|`,
      ...repeated.map(row),
      `| **Chaque page calculée à nouveau** (\`Cache-Control: no-cache\`) | | | | | | | |`,
      ...fresh.map(row),
    ];
    const ceilingLine = `Plafond (\`/bench/ceiling\`, Fastify + pg, SELECT … LIMIT 10), mesuré ${ceilings.length} fois : de ${Math.round(Math.min(...ceilingRates))} à ${Math.round(Math.max(...ceilingRates))} req/s, p99 de ${Math.min(...ceilings.map((c) => c.p99))} à ${Math.max(...ceilings.map((c) => c.p99))} ms.`;
    console.log(`\n${CONNECTIONS} connexions, ${DURATION} s par mesure après ${WARMUP} s d'échauffement, Node ${process.version}\n`);
    console.log(lines.join('\n'));
    console.log(`\n${ceilingLine}`);
    const verdict = (label: string, results: Result[]) => {
      const failing = results.filter((r) => ratio(r) < 50 || r.p99 >= 50 || r.errors + r.non2xx > 0);
      console.log(
        failing.length === 0
          ? `${label} : objectifs atteints (≥ 50 % du plafond, p99 < 50 ms).`
          : `${label} : sous l'objectif pour ${failing.map((r) => r.name).join(', ')}.`,
      );
    };
    const memory = await new Promise<NodeJS.MemoryUsage>((resolve) => {
      server.on('message', (message: { memory?: NodeJS.MemoryUsage }) => message.memory && resolve(message.memory));
      server.send('memory');
    });
    const megabytes = (bytes: number) => `${Math.round(bytes / 1024 / 1024)} Mo`;
    console.log(`\nMémoire du serveur après les mesures : ${megabytes(memory.rss)} (RSS), tas ${megabytes(memory.heapUsed)} utilisés sur ${megabytes(memory.heapTotal)}.`);
    console.log('');
    verdict('Listes relues (copie validée par la version du registre)', repeated);
    verdict('Listes calculées à chaque requête (sans cache)', fresh);
    mkdirSync(path.join(here, 'results'), { recursive: true });
    writeFileSync(
      path.join(here, 'results', `${new Date().toISOString().replace(/[:.]/g, '-')}.md`),
      `${lines.join('\n')}\n\n${ceilingLine}\n\nMémoire du serveur après les mesures : ${megabytes(memory.rss)} (RSS), tas ${megabytes(memory.heapUsed)}.\n`,
    );
  } finally {
    server.kill('SIGTERM');
  }
}

await main();
