import path from 'node:path';
import type { Config } from '../config.js';
import { type DatabaseHandle, openPglite, openPostgres } from './client.js';

/** DATABASE_URL → PostgreSQL server; otherwise the embedded PGlite in DATA_DIR. Migrates either way. */
export function openDatabase(config: Config, logger?: NonNullable<Parameters<typeof openPostgres>[1]>['logger']): Promise<DatabaseHandle> {
  if (config.databaseUrl) return openPostgres(config.databaseUrl, { logger });
  return openPglite({ dataDir: path.join(config.dataDir, 'pglite') });
}
