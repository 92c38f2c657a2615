import { readFileSync } from 'node:fs';
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

/** The parts of a JSON Schema of the OpenAPI document the suites read (generated from zod 4). */
export type OpenApiSchema = {
  type?: string | string[];
  format?: string;
  enum?: unknown[];
  const?: unknown;
  anyOf?: OpenApiSchema[];
  oneOf?: OpenApiSchema[];
  properties?: Record<string, OpenApiSchema>;
  required?: string[];
  items?: OpenApiSchema;
  minItems?: number;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  pattern?: string;
};
export type OpenApiParameter = { in: 'path' | 'query' | 'header'; name: string; required?: boolean; schema: OpenApiSchema };
export type OpenApiOperation = { summary?: string; parameters?: OpenApiParameter[]; requestBody?: { content: Record<string, { schema: OpenApiSchema }> } };

/**
 * Every operation of the committed OpenAPI document, in its order: the suites generated from the
 * routes (fuzz, hostile input, headers, logs, tenant matrix) read them here, so a route that
 * `npm run openapi` writes joins them all.
 */
export function openApiOperations(): { method: string; path: string; operation: OpenApiOperation }[] {
  const document = JSON.parse(readFileSync(OPENAPI_FILE, 'utf8')) as { paths: Record<string, Record<string, OpenApiOperation>> };
  return Object.entries(document.paths).flatMap(([path, operations]) =>
    Object.entries(operations).map(([method, operation]) => ({ method: method.toUpperCase(), path, operation })),
  );
}
