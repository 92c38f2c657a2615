import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createDrivers, createOrganization, createUser, linkUser } from '../seed/factories.js';
import { createTestApp, type TestContext } from '../../test/test-app.js';
import { startTcpProxy, type TcpProxy } from '../../test/tcp-proxy.js';

const testDb = inject('testDb');
const onPostgres = testDb.kind === 'postgres';

describe.runIf(onPostgres)('repro', () => {
  let t: TestContext;
  let proxy: TcpProxy;
  let token: string;
  beforeAll(async () => {
    const target = new URL(testDb.kind === 'postgres' ? testDb.url : 'postgres://x');
    proxy = await startTcpProxy({ host: target.hostname, port: Number(target.port || 5432) });
    t = await createTestApp({ AUTH_CONTEXT_TTL_MS: '0' }, { throughPort: proxy.port });
    await t.seed(async (tx) => {
      const org = await createOrganization(tx, { title: 'Coupure' });
      const user = await createUser(tx, { email: 'gestion@coupure.fr', roles: ['ADMIN'] });
      await linkUser(tx, org.uuid, user.uuid);
      await createDrivers(tx, org.uuid, [{ lastName: 'Conducteur' }]);
    });
    token = await t.login('gestion@coupure.fr');
  });
  afterAll(async () => {
    console.log('closing app');
    await t.app.close();
    console.log('closing db');
    await t.database.close();
    console.log('closing proxy');
    await proxy.close();
  });
  it('cut', async () => {
    proxy.cut();
    for (const r of [
      () => t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: 'gestion@coupure.fr', password: 'x'.repeat(12) } }),
      () => t.as(token, { method: 'GET', url: '/api/driver' }),
      () => t.as(token, { method: 'GET', url: '/api/driver' }),
    ]) {
      const s = Date.now();
      const res = await r();
      console.log(res.statusCode, Date.now() - s, res.body);
    }
    proxy.restore();
    const p = t.database.pool!;
    console.log('pool', p.totalCount, p.idleCount, p.waitingCount);
    const s = Date.now();
    const res = await t.as(token, { method: 'GET', url: '/api/driver' });
    console.log('after', res.statusCode, Date.now() - s);
    console.log('pool', p.totalCount, p.idleCount, p.waitingCount);
    expect(1).toBe(1);
  });
});
