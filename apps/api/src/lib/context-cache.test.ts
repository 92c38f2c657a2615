import { describe, expect, it } from 'vitest';
import type { AuthContext } from './auth-context.js';
import { ContextCache } from './context-cache.js';

const context = (organizationUuid: string): AuthContext => ({
  userUuid: 'u',
  sessionUuid: 'u',
  roles: ['USER'],
  organizationUuid,
  organizationUserUuid: null,
  environmentUuids: [],
});

describe('ContextCache', () => {
  it('keeps a loaded context for its time to live, then forgets it', async () => {
    const cache = new ContextCache(40);
    await cache.load('u', async () => context('alpha'));
    expect(cache.get('u')?.organizationUuid).toBe('alpha');
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect(cache.get('u')).toBeUndefined();
  });

  it('does not keep a context loaded before the cache was emptied (a write answered meanwhile)', async () => {
    const cache = new ContextCache(10_000);
    let finish!: (ctx: AuthContext) => void;
    const loading = cache.load('u', () => new Promise<AuthContext>((resolve) => (finish = resolve)));
    cache.clear();
    finish(context('before-the-write'));
    expect((await loading)?.organizationUuid).toBe('before-the-write');
    expect(cache.get('u')).toBeUndefined();
  });

  it('keeps nothing with a time to live of 0, nor an unknown user', async () => {
    const off = new ContextCache(0);
    await off.load('u', async () => context('alpha'));
    expect(off.get('u')).toBeUndefined();
    const on = new ContextCache(10_000);
    expect(await on.load('ghost', async () => null)).toBeNull();
    expect(on.get('ghost')).toBeUndefined();
  });

  it('holds at most its maximum of users, the oldest out first', async () => {
    const cache = new ContextCache(10_000, 2);
    for (const user of ['a', 'b', 'c']) await cache.load(user, async () => context(user));
    expect(cache.get('a')).toBeUndefined();
    expect(cache.get('b')?.organizationUuid).toBe('b');
    expect(cache.get('c')?.organizationUuid).toBe('c');
  });
});
