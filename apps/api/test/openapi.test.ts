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
});
