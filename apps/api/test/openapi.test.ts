import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { OPENAPI_FILE, renderOpenApi } from './openapi.js';

describe('OpenAPI document', () => {
  it('committed apps/api/openapi.json matches the routes (run `npm run openapi` after changing a route)', async () => {
    const committed = readFileSync(OPENAPI_FILE, 'utf8');
    expect(committed).toBe(await renderOpenApi());
  });

  it('documents every endpoint of the skeleton with its error responses', async () => {
    const document = JSON.parse(await renderOpenApi());
    const paths = Object.keys(document.paths);
    for (const path of [
      '/api/auth/login',
      '/api/auth/refresh-token',
      '/api/auth/logout',
      '/api/auth/me',
      '/api/user/{uuid}',
      '/api/organization',
      '/api/organization/environment',
      '/api/organization-user',
      '/api/organization-user/{id}',
      '/api/environment',
      '/api/environment/current',
      '/api/environment/{uuid}',
      '/api/environment-user/{uuid}/join',
      '/api/environment-user/{uuid}/quit',
      '/api/environment-user/{environmentUuid}/superadmin',
      '/api/report',
    ]) {
      expect(paths).toContain(path);
    }
    expect(document.paths['/api/report'].post.responses['400']).toBeDefined();
    expect(document.paths['/api/auth/login'].post.security).toEqual([]);
  });

  it('names the error envelope once, with its reference, and every error answer refers to it', () => {
    const document = JSON.parse(readFileSync(OPENAPI_FILE, 'utf8'));
    expect(Object.keys(document.components.schemas)).toEqual(['Error']);
    expect(document.components.schemas.Error.properties.requestId).toEqual({ type: 'string' });
    const errors: string[] = [];
    const inlined: string[] = [];
    for (const [path, operations] of Object.entries(document.paths as Record<string, Record<string, { responses: Record<string, { content?: Record<string, { schema: { $ref?: string } }> }> }>>)) {
      for (const [method, operation] of Object.entries(operations)) {
        for (const [status, response] of Object.entries(operation.responses)) {
          if (Number(status) < 400) continue;
          const where = `${method.toUpperCase()} ${path} ${status}`;
          errors.push(where);
          if (response.content?.['application/json']?.schema.$ref !== '#/components/schemas/Error') inlined.push(where);
        }
      }
    }
    expect(errors.length).toBeGreaterThan(300);
    expect(inlined).toEqual([]);
  });

  it('bounds every string a client sends: path, query and body (issue 9, contract primitives.ts)', () => {
    const document = JSON.parse(readFileSync(OPENAPI_FILE, 'utf8'));
    const unbounded: string[] = [];
    type Schema = Record<string, unknown> & { type?: string | string[]; properties?: Record<string, Schema>; items?: Schema };
    function walk(schema: Schema | undefined, where: string) {
      if (!schema || typeof schema !== 'object') return;
      const types = ([] as string[]).concat(schema.type ?? []);
      if (types.includes('string') && schema.maxLength === undefined && schema.enum === undefined && schema.const === undefined) unbounded.push(where);
      for (const [name, property] of Object.entries(schema.properties ?? {})) walk(property, `${where}.${name}`);
      for (const key of ['anyOf', 'oneOf', 'allOf'] as const) for (const part of (schema[key] as Schema[] | undefined) ?? []) walk(part, where);
      if (schema.items) walk(schema.items, `${where}[]`);
      if (typeof schema.additionalProperties === 'object') walk(schema.additionalProperties as Schema, `${where}.*`);
    }
    for (const [path, operations] of Object.entries(document.paths as Record<string, Record<string, { parameters?: { in: string; name: string; schema: Schema }[]; requestBody?: { content: Record<string, { schema: Schema }> } }>>)) {
      for (const [method, operation] of Object.entries(operations)) {
        for (const parameter of operation.parameters ?? []) walk(parameter.schema, `${method.toUpperCase()} ${path} ${parameter.in} ${parameter.name}`);
        for (const [type, content] of Object.entries(operation.requestBody?.content ?? {})) walk(content.schema, `${method.toUpperCase()} ${path} body (${type})`);
      }
    }
    expect(unbounded, 'declare these fields with the contract primitives (text, requiredText, optionalText, EmailSchema…)').toEqual([]);
  });
});
