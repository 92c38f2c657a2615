import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDrivers, createOrganization, createUser, linkUser } from '../seed/factories.js';
import { createTestApp, type TestContext } from '../../test/test-app.js';

/**
 * A list answers with its page's ETag; the web app sends it back as If-None-Match from the page
 * it holds in memory and gets 304 without a body while the registers the list shows have not
 * moved (issue 22).
 */

let t: TestContext;
let alpha: string;
let beta: string;

beforeAll(async () => {
  t = await createTestApp();
  await t.seed(async (tx) => {
    for (const name of ['alpha', 'beta']) {
      const organization = await createOrganization(tx, { title: `Transports ${name}` });
      const user = await createUser(tx, { email: `gestion@${name}.fr` });
      await linkUser(tx, organization.uuid, user.uuid, 'ADMIN');
      await createDrivers(tx, organization.uuid, [{ firstName: 'Élodie', lastName: `Écuyer ${name}` }]);
    }
  });
  alpha = await t.login('gestion@alpha.fr');
  beta = await t.login('gestion@beta.fr');
});
afterAll(() => t.close());

const get = (token: string, url: string, headers: Record<string, string> = {}) => t.as(token, { method: 'GET', url, headers });

describe('ETag and If-None-Match on the lists', () => {
  it('answers 304 without a body while nothing changed, then the new page after a write', async () => {
    const first = await get(alpha, '/api/driver');
    expect(first.statusCode).toBe(200);
    const etag = first.headers.etag as string;
    expect(etag).toMatch(/^W\/".+"$/);
    // The same page read again carries the same ETag.
    expect((await get(alpha, '/api/driver')).headers.etag).toBe(etag);

    const again = await get(alpha, '/api/driver', { 'if-none-match': etag });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
    expect(again.headers.etag).toBe(etag);

    const created = await t.as(alpha, { method: 'POST', url: '/api/driver', payload: { firstName: 'Jérôme', lastName: 'Nouveau' } });
    expect(created.statusCode).toBe(201);
    const changed = await get(alpha, '/api/driver', { 'if-none-match': etag });
    expect(changed.statusCode).toBe(200);
    expect(changed.json().data.map((d: { lastName: string }) => d.lastName)).toEqual(['Écuyer alpha', 'Nouveau']);
    expect(changed.headers.etag).not.toBe(etag);
    await t.as(alpha, { method: 'DELETE', url: `/api/driver/${created.json().uuid}/hard` });
  });

  it('gives another query, another organization and a computed-afresh read their own answer', async () => {
    const etag = (await get(alpha, '/api/driver')).headers.etag as string;
    expect((await get(alpha, '/api/driver?search=ecuyer', { 'if-none-match': etag })).statusCode).toBe(200);
    const other = await get(beta, '/api/driver', { 'if-none-match': etag });
    expect(other.statusCode).toBe(200);
    expect(other.json().data).toEqual([expect.objectContaining({ lastName: 'Écuyer beta' })]);
    // Asked afresh, still not modified: the registers' version is read afresh either way.
    expect((await get(alpha, '/api/driver', { 'if-none-match': etag, 'cache-control': 'no-cache' })).statusCode).toBe(304);
    // A list of ETags, one of them current.
    expect((await get(alpha, '/api/driver', { 'if-none-match': `W/"autre", ${etag}` })).statusCode).toBe(304);
    expect((await get(alpha, '/api/driver', { 'if-none-match': 'W/"inconnu"' })).statusCode).toBe(200);
  });

  it('does it for every register, the claims’ version following their vehicles and drivers', async () => {
    for (const url of ['/api/vehicule', '/api/sinister']) {
      const etag = (await get(alpha, url)).headers.etag as string;
      expect(etag, url).toBeTruthy();
      expect((await get(alpha, url, { 'if-none-match': etag })).statusCode, url).toBe(304);
    }
    const claims = (await get(alpha, '/api/sinister')).headers.etag as string;
    const renamed = await t.as(alpha, { method: 'POST', url: '/api/vehicule', payload: { brand: 'Renault', model: 'Kangoo', type: 'VUL', immatriculation: 'AA-111-AA' } });
    expect(renamed.statusCode).toBe(201);
    expect((await get(alpha, '/api/sinister', { 'if-none-match': claims })).statusCode).toBe(200);
    await t.as(alpha, { method: 'DELETE', url: `/api/vehicule/${renamed.json().uuid}/hard` });
  });
});
