import { buildApp } from './app.js';
import { ConfigError, loadConfig } from './config.js';
import { openDatabase } from './db/open.js';
import { seedDemoIfEmpty } from './seed/demo.js';

async function main() {
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

  const database = await openDatabase(config);
  const app = await buildApp(config, database);
  const seeded = config.seedDemo ? await seedDemoIfEmpty(database.db, config.demoPassword) : null;

  const shutdown = async (signal: string) => {
    app.log.info({ signal }, 'arrêt en cours');
    const timer = setTimeout(() => process.exit(1), 10_000);
    timer.unref();
    await app.close();
    await database.close();
    process.exit(0);
  };
  process.once('SIGINT', () => void shutdown('SIGINT'));
  process.once('SIGTERM', () => void shutdown('SIGTERM'));

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

main().catch((error: unknown) => {
  console.error('Démarrage impossible :', error);
  process.exit(1);
});
