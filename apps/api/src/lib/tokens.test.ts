import { afterEach, describe, expect, it, vi } from 'vitest';
import { ACCESS_TOKEN_TTL_SECONDS, AccessTokens } from './tokens.js';

const SECRET = 'unit-test-secret-0123456789-0123456789';

describe('AccessTokens', () => {
  afterEach(() => vi.useRealTimers());

  it('verifies a token, then answers from its cache of verified tokens', async () => {
    const tokens = new AccessTokens(SECRET);
    const token = await tokens.sign('3f1f0c2e-7c1b-4b8a-9a43-2c6c3b1d9e10');
    expect(await tokens.verify(token)).toBe('3f1f0c2e-7c1b-4b8a-9a43-2c6c3b1d9e10');
    expect(await tokens.verify(token)).toBe('3f1f0c2e-7c1b-4b8a-9a43-2c6c3b1d9e10');
  });

  it('still refuses a cached token once it has expired', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const tokens = new AccessTokens(SECRET);
    const token = await tokens.sign('3f1f0c2e-7c1b-4b8a-9a43-2c6c3b1d9e10');
    expect(await tokens.verify(token)).not.toBeNull();
    vi.setSystemTime(Date.now() + (ACCESS_TOKEN_TTL_SECONDS + 1) * 1000);
    expect(await tokens.verify(token)).toBeNull();
  });

  it('never caches a refusal: a tampered or foreign token stays refused', async () => {
    const tokens = new AccessTokens(SECRET);
    const other = new AccessTokens('another-secret-0123456789-0123456789-x');
    const foreign = await other.sign('3f1f0c2e-7c1b-4b8a-9a43-2c6c3b1d9e10');
    expect(await tokens.verify(foreign)).toBeNull();
    expect(await tokens.verify(foreign)).toBeNull();
    const token = await tokens.sign('3f1f0c2e-7c1b-4b8a-9a43-2c6c3b1d9e10');
    expect(await tokens.verify(`${token.slice(0, -2)}xx`)).toBeNull();
  });
});
