import { afterEach, describe, expect, it, vi } from 'vitest';
import { nextTask } from './next-task';

describe('nextTask', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('resolves in a later task: the microtasks queued after it, and a timer queued before it, run first', async () => {
    const order: string[] = [];
    setTimeout(() => order.push('timer queued before'), 0);
    const done = nextTask().then(() => order.push('next task'));
    void Promise.resolve().then(() => order.push('microtask'));
    await done;
    expect(order).toEqual(['microtask', 'timer queued before', 'next task']);
  });

  it('uses scheduler.yield() where the browser has it', async () => {
    const yieldFn = vi.fn(() => Promise.resolve());
    vi.stubGlobal('scheduler', { yield: yieldFn });
    await nextTask();
    expect(yieldFn).toHaveBeenCalledTimes(1);
  });
});
