import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import { ErrorSchema } from '@flotte/contract';
import { jsonSchemaTransform, jsonSchemaTransformObject } from 'fastify-type-provider-zod';
import { z } from 'zod';

export const OPENAPI_INFO = {
  title: 'FlotteAssur API',
  description: "API de FlotteAssur : gestion de flotte automobile et suivi d'assurance. Messages d'erreur en français.",
  version: '0.1.0',
};

/**
 * Schemas named once in the document's components and referred to by every route (`$ref`): the
 * error envelope answers on nearly every route, and inlined it made the document a third longer.
 */
const NAMED_SCHEMAS: [z.ZodType, string][] = [[ErrorSchema, 'Error']];
for (const [schema, id] of NAMED_SCHEMAS) if (!z.globalRegistry.has(schema)) z.globalRegistry.add(schema, { id });

/** The library names each schema twice (as read and as written): the form no route refers to goes. */
function withoutUnusedSchemas<T>(document: T): T {
  const schemas = (document as { components?: { schemas?: Record<string, unknown> } }).components?.schemas;
  if (!schemas) return document;
  const text = JSON.stringify({ ...document, components: { ...(document as { components: object }).components, schemas: {} } });
  for (const name of Object.keys(schemas)) if (!text.includes(`"#/components/schemas/${name}"`)) delete schemas[name];
  return document;
}

/** OpenAPI generated from the routes' zod schemas; UI at /api/docs, JSON at /api/docs/json. */
export async function registerSwagger(app: FastifyInstance) {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: OPENAPI_INFO,
      components: { securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } } },
      security: [{ bearerAuth: [] }],
    },
    transform: jsonSchemaTransform,
    transformObject: (input) => withoutUnusedSchemas(jsonSchemaTransformObject(input)),
  });
  await app.register(swaggerUi, { routePrefix: '/api/docs', uiConfig: { docExpansion: 'list' } });
}
