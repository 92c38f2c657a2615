import { describe, expect, it } from 'vitest';
import { MemoryFailureStore } from './failure-limiter.js';
import { addressKey, DEFAULT_LOGIN_LIMITS, LoginLimits, tooManyAttemptsMessage } from './login-limits.js';

describe('addressKey', () => {
  it.each([
    ['192.0.2.7', '192.0.2.7'],
    ['::ffff:192.0.2.7', '192.0.2.7'],
    ['2001:db8:1:2::5', '2001:db8:1:2::/64'],
    ['2001:0db8:0001:0002:ffff:0:0:9', '2001:db8:1:2::/64'],
    ['2001:db8::1', '2001:db8:0:0::/64'],
    ['::1', '0:0:0:0::/64'],
    ['fe80::1:2:3:4', 'fe80:0:0:0::/64'],
    ['pas-une-adresse', 'pas-une-adresse'],
  ])('%s → %s', (ip, key) => {
    expect(addressKey(ip)).toBe(key);
  });
});

describe('LoginLimits', () => {
  const clock = () => {
    let now = 1_000_000;
    return { now: () => now, advance: (ms: number) => (now += ms) };
  };

  it('refuses an address after 5 failures on one account, for the rest of the window', async () => {
    const time = clock();
    const limits = new LoginLimits(new MemoryFailureStore(), DEFAULT_LOGIN_LIMITS, time.now);
    for (let i = 0; i < 5; i++) {
      expect(await limits.retryAfter('a@x.fr', '192.0.2.1')).toBe(0);
      await limits.recordFailure('a@x.fr', '192.0.2.1');
    }
    expect(await limits.retryAfter('a@x.fr', '192.0.2.1')).toBe(900);
    expect(await limits.retryAfter('a@x.fr', '192.0.2.2')).toBe(0);
    expect(await limits.retryAfter('b@x.fr', '192.0.2.1')).toBe(0);
    time.advance(600_000);
    expect(await limits.retryAfter('a@x.fr', '192.0.2.1')).toBe(300);
    time.advance(300_001);
    expect(await limits.retryAfter('a@x.fr', '192.0.2.1')).toBe(0);
  });

  it('refuses an address after 30 failures on any accounts', async () => {
    const limits = new LoginLimits(new MemoryFailureStore(), DEFAULT_LOGIN_LIMITS, clock().now);
    for (let i = 0; i < 30; i++) await limits.recordFailure(`compte${i}@x.fr`, '192.0.2.9');
    expect(await limits.retryAfter('nouveau@x.fr', '192.0.2.9')).toBeGreaterThan(0);
    expect(await limits.retryAfter('nouveau@x.fr', '192.0.2.10')).toBe(0);
  });

  it('slows an account down after 10 failures from anywhere, doubling up to 4 s, and never refuses a fresh address', async () => {
    const time = clock();
    const limits = new LoginLimits(new MemoryFailureStore(), DEFAULT_LOGIN_LIMITS, time.now);
    const delays: number[] = [];
    for (let i = 0; i < 16; i++) {
      delays.push(await limits.delayMs('a@x.fr'));
      await limits.recordFailure('a@x.fr', `198.51.100.${i}`);
    }
    expect(delays).toEqual([0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 250, 500, 1000, 2000, 4000, 4000]);
    expect(await limits.retryAfter('a@x.fr', '203.0.113.1')).toBe(0);
    expect(await limits.delayMs('b@x.fr')).toBe(0);
    time.advance(15 * 60_000 + 1);
    expect(await limits.delayMs('a@x.fr')).toBe(0);
  });

  it('forgives an address its failures on an account when it gives the right password, not the account its count', async () => {
    const limits = new LoginLimits(new MemoryFailureStore(), DEFAULT_LOGIN_LIMITS, clock().now);
    for (let i = 0; i < 4; i++) await limits.recordFailure('a@x.fr', '192.0.2.1');
    for (let i = 0; i < 7; i++) await limits.recordFailure('a@x.fr', `198.51.100.${i}`);
    expect((await limits.admission('a@x.fr', '192.0.2.1')).pairFailures).toBe(4);
    await limits.recordSuccess('a@x.fr', '192.0.2.1');
    expect((await limits.admission('a@x.fr', '192.0.2.1')).pairFailures).toBe(0);
    for (let i = 0; i < 4; i++) await limits.recordFailure('a@x.fr', '192.0.2.1');
    expect(await limits.retryAfter('a@x.fr', '192.0.2.1')).toBe(0);
    expect(await limits.delayMs('a@x.fr')).toBeGreaterThan(0);
  });
});

describe('tooManyAttemptsMessage', () => {
  it.each([
    [1, 'Trop de tentatives de connexion depuis cette adresse. Réessayez dans 1 seconde.'],
    [45, 'Trop de tentatives de connexion depuis cette adresse. Réessayez dans 45 secondes.'],
    [900, 'Trop de tentatives de connexion depuis cette adresse. Réessayez dans 15 minutes.'],
  ])('%i s', (seconds, message) => {
    expect(tooManyAttemptsMessage(seconds)).toBe(message);
  });
});
