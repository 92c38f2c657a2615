import { describe, expect, it, vi } from 'vitest';
import { createAfterAnswer } from './after-answer.js';

describe('createAfterAnswer', () => {
  it('runs the work after the caller went on, and settled() waits for it and for work it started', async () => {
    const log = { error: vi.fn() };
    const after = createAfterAnswer(log);
    const done: string[] = [];
    after.run('first', async () => {
      await new Promise((r) => setTimeout(r, 20));
      done.push('first');
      after.run('second', async () => {
        await new Promise((r) => setTimeout(r, 10));
        done.push('second');
      });
    });
    // The caller's own code runs before the work.
    done.push('answer');
    await after.settled();
    expect(done).toEqual(['answer', 'first', 'second']);
    expect(log.error).not.toHaveBeenCalled();
  });

  it('logs a failed work with its name, never throws to the caller, and settles', async () => {
    const log = { error: vi.fn() };
    const after = createAfterAnswer(log);
    after.run('broken', () => Promise.reject(new Error('boom')));
    after.run('sync-throw', () => {
      throw new Error('at once');
    });
    await after.settled();
    expect(log.error).toHaveBeenCalledTimes(2);
    expect(log.error.mock.calls.map((call) => (call[0] as { work: string }).work).sort()).toEqual(['broken', 'sync-throw']);
  });
});
