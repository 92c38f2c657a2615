import { fileURLToPath } from 'node:url';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import type { DatabaseHandle } from '../src/db/client.js';
import { StatementEvents } from '../src/db/statement-timing.js';

export const OPENAPI_FILE = fileURLToPath(new URL('../openapi.json', import.meta.url));

/** The OpenAPI document as generated from the routes; building it needs no database. */
export async function renderOpenApi(): Promise<string> {
  const config = loadConfig({ APP_SECRET: 'openapi-only-0123456789-0123456789', LOG_LEVEL: 'silent' });
  const noDatabase = { db: undefined, kind: 'postgres', close: async () => undefined, statements: new StatementEvents() } as unknown as DatabaseHandle;
  const app = await buildApp(config, noDatabase, { serveWeb: false, logger: false, startJobs: false });
  await app.ready();
  const document = app.swagger();
  await app.close();
  return `${JSON.stringify(document, null, 2)}\n`;
}
