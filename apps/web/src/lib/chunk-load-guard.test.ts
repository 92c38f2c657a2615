import { describe, expect, it, vi } from 'vitest';
import { CHUNK_RELOAD_KEY, isChunkLoadError, reloadOnceForChunkError, withChunkReload } from './chunk-load-guard';

const chunkError = () => new TypeError('Failed to fetch dynamically imported module: /assets/drivers-abc123.js');

describe('chunk-load guard', () => {
  it('recognises dynamic import failures of the main browsers', () => {
    expect(isChunkLoadError(chunkError())).toBe(true);
    expect(isChunkLoadError(new TypeError('error loading dynamically imported module'))).toBe(true);
    expect(isChunkLoadError(new TypeError('Importing a module script failed.'))).toBe(true);
    expect(isChunkLoadError(new Error('Cannot read properties of undefined'))).toBe(false);
    expect(isChunkLoadError('Failed to fetch dynamically imported module')).toBe(false);
  });

  it('reloads at most once per 60 seconds', () => {
    const reload = vi.fn();
    const t0 = 1_700_000_000_000;
    expect(reloadOnceForChunkError({ now: t0, reload })).toBe(true);
    expect(window.sessionStorage.getItem(CHUNK_RELOAD_KEY)).toBe(String(t0));
    expect(reloadOnceForChunkError({ now: t0 + 59_999, reload })).toBe(false);
    expect(reload).toHaveBeenCalledTimes(1);
    expect(reloadOnceForChunkError({ now: t0 + 60_000, reload })).toBe(true);
    expect(reload).toHaveBeenCalledTimes(2);
  });

  it('reloads instead of failing when a lazy route chunk is gone', async () => {
    const reload = vi.fn();
    const load = withChunkReload(() => Promise.reject(chunkError()), { now: 1000, reload });
    const outcome = await Promise.race([load().then(() => 'settled'), new Promise((r) => setTimeout(() => r('pending'), 20))]);
    expect(outcome).toBe('pending');
    expect(reload).toHaveBeenCalledOnce();
  });

  it('lets the error through when it already reloaded within the minute', async () => {
    const reload = vi.fn();
    window.sessionStorage.setItem(CHUNK_RELOAD_KEY, '1000');
    const load = withChunkReload(() => Promise.reject(chunkError()), { now: 30_000, reload });
    await expect(load()).rejects.toThrow('Failed to fetch dynamically imported module');
    expect(reload).not.toHaveBeenCalled();
  });

  it('rethrows errors that are not chunk errors', async () => {
    const reload = vi.fn();
    const load = withChunkReload(() => Promise.reject(new Error('boom')), { reload });
    await expect(load()).rejects.toThrow('boom');
    expect(reload).not.toHaveBeenCalled();
  });

  it('passes a successful import through', async () => {
    const load = withChunkReload(() => Promise.resolve({ default: 'page' }));
    await expect(load()).resolves.toEqual({ default: 'page' });
  });
});
