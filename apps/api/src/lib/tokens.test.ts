import { createSecretKey, hkdfSync } from 'node:crypto';
import { SignJWT } from 'jose';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ACCESS_TOKEN_TTL_SECONDS, AccessTokens } from './tokens.js';

const SECRET = 'unit-test-secret-0123456789-0123456789';
const SUBJECT = { userUuid: '3f1f0c2e-7c1b-4b8a-9a43-2c6c3b1d9e10', sessionUuid: '8d0c7a55-2f4e-4c1a-9b7e-5a1f0e2d3c4b' };

describe('AccessTokens', () => {
  afterEach(() => vi.useRealTimers());

  it('verifies a token, then answers from its cache of verified tokens', async () => {
    const tokens = new AccessTokens(SECRET);
    const token = await tokens.sign(SUBJECT);
    expect(await tokens.verify(token)).toEqual(SUBJECT);
    expect(await tokens.verify(token)).toEqual(SUBJECT);
  });

  it('still refuses a cached token once it has expired', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const tokens = new AccessTokens(SECRET);
    const token = await tokens.sign(SUBJECT);
    expect(await tokens.verify(token)).not.toBeNull();
    vi.setSystemTime(Date.now() + (ACCESS_TOKEN_TTL_SECONDS + 1) * 1000);
    expect(await tokens.verify(token)).toBeNull();
  });

  it('never caches a refusal: a tampered or foreign token stays refused', async () => {
    const tokens = new AccessTokens(SECRET);
    const other = new AccessTokens('another-secret-0123456789-0123456789-x');
    const foreign = await other.sign(SUBJECT);
    expect(await tokens.verify(foreign)).toBeNull();
    expect(await tokens.verify(foreign)).toBeNull();
    const token = await tokens.sign(SUBJECT);
    expect(await tokens.verify(`${token.slice(0, -2)}xx`)).toBeNull();
  });

  it('refuses a token that names no session (issued before sessions were checked)', async () => {
    const key = createSecretKey(Buffer.from(hkdfSync('sha256', SECRET, 'flotteassur', 'access-token', 32)));
    const sessionless = await new SignJWT({})
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setSubject(SUBJECT.userUuid)
      .setIssuer('flotteassur')
      .setAudience('flotteassur-web')
      .setIssuedAt()
      .setExpirationTime('5m')
      .sign(key);
    expect(await new AccessTokens(SECRET).verify(sessionless)).toBeNull();
  });
});
