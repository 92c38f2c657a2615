// The product's server plus one bare route, side by side in one process: GET /bench/ceiling runs a
// single `SELECT … LIMIT 10` on a plain pg pool — what Fastify + PostgreSQL can do at best here.
import pg from 'pg';
import { buildApp } from '../apps/api/src/app.js';
import { loadConfig } from '../apps/api/src/config.js';
import { openPostgres } from '../apps/api/src/db/client.js';

const config = loadConfig();
const database = await openPostgres(config.databaseUrl!, { migrate: false });
const app = await buildApp(config, database, { serveWeb: false, logger: false });
const bare = new pg.Pool({ connectionString: config.databaseUrl, max: 10 });
app.get('/bench/ceiling', { schema: { hide: true } }, async () => {
  const { rows } = await bare.query('SELECT uuid, first_name, last_name, email, phone FROM drivers LIMIT 10');
  return rows;
});
await app.listen({ port: config.port, host: '127.0.0.1' });
process.send?.('ready');
// The runner asks for the server's memory once the measures are done.
process.on('message', (message) => {
  if (message === 'memory') process.send?.({ memory: process.memoryUsage() });
});
process.on('SIGTERM', async () => {
  await app.close();
  await bare.end();
  await database.close();
  process.exit(0);
});
