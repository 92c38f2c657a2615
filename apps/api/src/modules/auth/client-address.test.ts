import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser } from '../../seed/factories.js';
import { createTestApp, type TestContext } from '../../../test/test-app.js';

/**
 * The login limits count by the client's address. Behind proxies, that address is read from
 * X-Forwarded-For as far as the configured proxies vouch for it (TRUST_PROXY: a number of hops or
 * the proxies' addresses), never from the left-most entry, which the client writes (decision 014).
 */

const RIGHT = 'Motdepasse-tests-1';

async function appWith(trustProxy: string | undefined) {
  const t = await createTestApp(trustProxy === undefined ? {} : { TRUST_PROXY: trustProxy });
  await t.seed(async (tx) => {
    await createUser(tx, { email: 'victime@exemple.fr' });
  });
  return t;
}

function login(t: TestContext, options: { socket: string; forwardedFor?: string; password?: string }) {
  return t.app.inject({
    method: 'POST',
    url: '/api/auth/login',
    remoteAddress: options.socket,
    headers: options.forwardedFor === undefined ? {} : { 'x-forwarded-for': options.forwardedFor },
    payload: { email: 'victime@exemple.fr', password: options.password ?? 'devine' },
  });
}

/** Five failures, each with a different left-most (client-written) X-Forwarded-For entry. */
async function failFiveTimes(t: TestContext, socket: string, realClient: string | null) {
  for (let i = 0; i < 5; i++) {
    const forwardedFor = realClient === null ? `198.18.0.${i}` : `198.18.0.${i}, ${realClient}`;
    expect((await login(t, { socket, forwardedFor })).statusCode).toBe(401);
  }
}

describe('TRUST_PROXY=1 (one proxy in front: its hop is trusted, and only it)', () => {
  let t: TestContext;
  beforeAll(async () => {
    t = await appWith('1');
  });
  afterAll(() => t.close());

  it('takes the entry the proxy appended: rotating the client-written entries does not escape the limit', async () => {
    await failFiveTimes(t, '10.0.0.2', '203.0.113.5');
    const blocked = await login(t, { socket: '10.0.0.2', forwardedFor: '198.18.9.9, 203.0.113.5', password: RIGHT });
    expect(blocked.statusCode).toBe(429);
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
    // The owner, through the same proxy from its own address, gets in.
    expect((await login(t, { socket: '10.0.0.2', forwardedFor: '203.0.113.77', password: RIGHT })).statusCode).toBe(200);
  });
});

describe('TRUST_PROXY=2 (two proxies in a row)', () => {
  let t: TestContext;
  beforeAll(async () => {
    t = await appWith('2');
  });
  afterAll(() => t.close());

  it('takes the entry the outer proxy appended', async () => {
    // Client-written, client (written by the outer proxy), outer proxy (written by the inner one).
    for (let i = 0; i < 5; i++) {
      expect((await login(t, { socket: '10.0.0.3', forwardedFor: `198.18.1.${i}, 203.0.113.6, 10.0.0.9` })).statusCode).toBe(401);
    }
    expect((await login(t, { socket: '10.0.0.3', forwardedFor: '198.18.1.99, 203.0.113.6, 10.0.0.9', password: RIGHT })).statusCode).toBe(429);
    expect((await login(t, { socket: '10.0.0.3', forwardedFor: '203.0.113.78, 10.0.0.9', password: RIGHT })).statusCode).toBe(200);
  });
});

describe('TRUST_PROXY=<the proxies\u2019 addresses>', () => {
  let t: TestContext;
  beforeAll(async () => {
    t = await appWith('10.0.0.2, 10.1.0.0/16');
  });
  afterAll(() => t.close());

  it('believes X-Forwarded-For only as far as the trusted proxies go', async () => {
    // Through both proxies (10.1.2.3 appended by 10.0.0.2): the client is the entry before them.
    for (let i = 0; i < 5; i++) {
      expect((await login(t, { socket: '10.0.0.2', forwardedFor: `198.18.2.${i}, 203.0.113.7, 10.1.2.3` })).statusCode).toBe(401);
    }
    expect((await login(t, { socket: '10.0.0.2', forwardedFor: '198.18.2.99, 203.0.113.7, 10.1.2.3', password: RIGHT })).statusCode).toBe(429);
    expect((await login(t, { socket: '10.0.0.2', forwardedFor: '203.0.113.79, 10.1.2.3', password: RIGHT })).statusCode).toBe(200);
  });

  it('ignores X-Forwarded-For from a peer that is not a trusted proxy: the client is the peer', async () => {
    await failFiveTimes(t, '198.51.100.7', null);
    expect((await login(t, { socket: '198.51.100.7', forwardedFor: '203.0.113.80', password: RIGHT })).statusCode).toBe(429);
    // …and cannot pass itself off as someone else: another real client is unaffected.
    expect((await login(t, { socket: '198.51.100.8', password: RIGHT })).statusCode).toBe(200);
  });
});

describe('without TRUST_PROXY', () => {
  let t: TestContext;
  beforeAll(async () => {
    t = await appWith(undefined);
  });
  afterAll(() => t.close());

  it('never reads X-Forwarded-For: a client writing it is still counted by its own address', async () => {
    await failFiveTimes(t, '198.51.100.9', null);
    expect((await login(t, { socket: '198.51.100.9', forwardedFor: '203.0.113.81', password: RIGHT })).statusCode).toBe(429);
  });
});
