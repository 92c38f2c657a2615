import { describe, expect, it } from 'vitest';
import { needsSession } from './router';

describe('needsSession', () => {
  it('is true for the pages under the logged layout, false for the public pages and unknown paths', () => {
    for (const path of ['/dashboard', '/vehicules', '/drivers', '/sinisters', '/account', '/vehicules/']) expect(needsSession(path)).toBe(true);
    for (const path of ['/', '/refresh', '/recover', '/signup', '/nimporte-quoi', '/vehicules/12']) expect(needsSession(path)).toBe(false);
  });
});
