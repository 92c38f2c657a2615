import { pino } from 'pino';
import { buildApp } from './app.js';
import { ConfigError, loadConfig } from './config.js';
import { openDatabase } from './db/open.js';
import { tuneHeap } from './platform/memory/heap.js';
import type { Tracing } from './platform/tracing/requested.js';
import { seedDemoIfEmpty } from './seed/demo.js';

const SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;
/** How long, once stopping, a keep-alive connection may stay idle before it is closed. */
const IDLE_CONNECTIONS_GRACE_MS = 1_000;

/** The server's life: configuration, database, app, signals (server.ts starts tracing first). */
export async function serve(tracing: Tracing | null) {
  let config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
  // Before the database opens: the heap grows at most this much above what the server holds (decision 051).
  tuneHeap(config.heapGrowthPercent);

  // Until the server is up, a signal stops the process at once; the embedded folder's lock is
  // released by the process's exit (db/data-dir-lock.ts).
  let shutdown: (signal: string) => void = (signal) => {
    console.error(`Démarrage interrompu (${signal}).`);
    process.exit(1);
  };
  for (const signal of SIGNALS) process.once(signal, () => shutdown(signal));

  const log = pino({ level: config.logLevel });
  const database = await openDatabase(config, log);
  const app = await buildApp(config, database);
  const seeded = config.seedDemo ? await seedDemoIfEmpty(database.db, config.demoPassword) : null;

  shutdown = (signal: string) => {
    app.log.info({ signal }, 'arrêt en cours');
    const timer = setTimeout(() => process.exit(1), 10_000);
    timer.unref();
    // Node's server.close() (in app.close()) destroys at once the keep-alive connections idle at
    // that instant, with any request a client has just sent on one that this busy process has not
    // read yet: the client gets a reset, not an answer. They stay open a moment instead: a request
    // on one is answered 503 with `Connection: close` (app.ts refuseWhileClosing), which ends it; those
    // still idle afterwards are closed (issue 20, test/resilience/shutdown.resilience.ts).
    const closeIdleConnections = app.server.closeIdleConnections.bind(app.server);
    app.server.closeIdleConnections = () => undefined;
    setTimeout(closeIdleConnections, IDLE_CONNECTIONS_GRACE_MS).unref();
    void (async () => {
      await app.close();
      // Closes the database, then releases the embedded folder.
      await database.close();
      // What the traces still hold is sent before the process goes.
      await tracing?.shutdown().catch(() => undefined);
      process.exit(0);
    })();
  };

  await app.listen({ port: config.port, host: config.host });
  const url = config.publicUrl ?? `http://${config.host.includes(':') ? `[${config.host}]` : config.host}:${config.port}`;
  const lines = [
    '',
    `  FlotteAssur est prêt : ${url}`,
    `  Base de données : ${database.kind === 'pglite' ? `PGlite embarqué (${config.dataDir})` : 'PostgreSQL'}`,
    `  Documentation de l'API : ${url}/api/docs`,
  ];
  if (seeded) {
    lines.push('', seeded.created ? '  Données de démonstration créées. Comptes :' : '  Comptes de démonstration :');
    for (const account of seeded.accounts) lines.push(`    ${account.email.padEnd(22)} ${account.label}`);
    lines.push(`  Mot de passe : ${config.demoPassword === 'Demo1234!' ? 'Demo1234!' : '(DEMO_PASSWORD)'}`);
  }
  console.log(lines.join('\n') + '\n');
}
