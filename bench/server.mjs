// @ts-check
// The product's server as `npm start` runs it — the built API (apps/api/dist), plain node, no
// TypeScript loader: tsx's loader thread alone holds ≈ 85 MB of resident memory, which the
// deployed server does not carry (measured 2026-11-27: 188 MB idle built, 274–279 MB under tsx).
// `npm run bench` builds the contract and the API before it starts this file.
// Beside it, bare routes: GET /bench/ceiling runs a single `SELECT … LIMIT 10` on a plain pg pool —
// what Fastify + PostgreSQL can do at best here; GET /bench/ceiling-tenant does the same for one
// random typical organization (its ten first drivers), the ceiling of the many-organizations mix.
// Without DATABASE_URL the server runs on the embedded PGlite of DATA_DIR, as the product does,
// and has no bare route.
import pg from 'pg';
import { buildApp } from '../apps/api/dist/app.js';
import { loadConfig } from '../apps/api/dist/config.js';
import { openPostgres } from '../apps/api/dist/db/client.js';
import { openDatabase } from '../apps/api/dist/db/open.js';
import { tuneHeap } from '../apps/api/dist/platform/memory/heap.js';

const config = loadConfig();
// The heap as `npm start` sets it (decision 051).
tuneHeap(config.heapGrowthPercent);
const database = config.databaseUrl
  ? await openPostgres(config.databaseUrl, { migrate: false })
  : await openDatabase(config, { info: () => undefined, warn: (obj, msg) => console.warn(msg, obj), error: (obj, msg) => console.error(msg, obj) });
const app = await buildApp(config, database, { serveWeb: false, logger: false });
const bare = config.databaseUrl ? new pg.Pool({ connectionString: config.databaseUrl, max: 10 }) : null;
// The typical organizations' users share this e-mail domain (bench/typical.ts, passed by the runner).
const typicalDomain = process.env.BENCH_TYPICAL_DOMAIN ?? '';
if (bare) {
  app.get('/bench/ceiling', { schema: { hide: true } }, async () => {
    const { rows } = await bare.query('SELECT uuid, first_name, last_name, email, phone FROM drivers LIMIT 10');
    return rows;
  });
  // The typical organizations, read once (on first use: the runner seeds them before it asks).
  /** @type {Promise<string[]> | undefined} */
  let tenants;
  app.get('/bench/ceiling-tenant', { schema: { hide: true } }, async () => {
    tenants ??= bare
      .query(`SELECT ou.organization_uuid FROM organization_users ou JOIN users u ON u.uuid = ou.user_uuid WHERE u.email LIKE '%@' || $1`, [typicalDomain])
      .then((r) => r.rows.map((row) => row.organization_uuid));
    const list = await tenants;
    const organization = list[Math.floor(Math.random() * list.length)];
    const { rows } = await bare.query('SELECT uuid, first_name, last_name, email, phone FROM drivers WHERE organization_uuid = $1 LIMIT 10', [organization]);
    return rows;
  });
}
await app.listen({ port: config.port, host: '127.0.0.1' });
process.send?.('ready');
// The runner asks for the server's memory once the measures are done.
process.on('message', (message) => {
  // During an export: the resident size alone, no collection (it would slow what is measured).
  if (message === 'rss') process.send?.({ rss: process.memoryUsage().rss });
  if (message === 'memory') {
    const before = process.memoryUsage();
    // After a full collection too (the server runs with --expose-gc): what the server holds, not the garbage of the last burst.
    /** @type {{ gc?: () => void }} */ (globalThis).gc?.();
    process.send?.({ memory: before, afterGc: process.memoryUsage() });
  }
});
process.on('SIGTERM', async () => {
  await app.close();
  await bare?.end();
  await database.close();
  process.exit(0);
});
