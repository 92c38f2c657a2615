import type { Config } from '../config.js';
import { type DatabaseHandle, openPostgres } from './client.js';
import { openEmbeddedDatabase, type StartLogger } from './embedded.js';

/**
 * DATABASE_URL → PostgreSQL server (several processes may share it: no folder lock); otherwise the
 * embedded PGlite in DATA_DIR, locked to this process, with its backups (db/embedded.ts).
 * Migrates either way.
 */
export function openDatabase(config: Config, logger: StartLogger): Promise<DatabaseHandle> {
  if (config.databaseUrl) return openPostgres(config.databaseUrl, { logger });
  return openEmbeddedDatabase(config, logger);
}
