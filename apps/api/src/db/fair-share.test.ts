import { describe, expect, it } from 'vitest';
import { FairShare, OverloadedError } from './fair-share.js';

/** An operation the test ends when it wants, recording when it started. */
function gate(log: string[], name: string) {
  let open!: () => void;
  const done = new Promise<void>((resolve) => (open = resolve));
  return {
    run: async () => {
      log.push(name);
      await done;
      return name;
    },
    end: () => open(),
  };
}
const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('FairShare', () => {
  it('runs at most its capacity at once, and one organization at most its share', async () => {
    const share = new FairShare({ capacity: 4, maxWaitMs: 1000 });
    expect(share.perKey).toBe(2);
    const log: string[] = [];
    const a = [1, 2, 3, 4].map((i) => gate(log, `a${i}`));
    const running = a.map((g) => share.run('a', g.run));
    await tick();
    // The giant gets half the connections; the rest waits for its own turn.
    expect(log).toEqual(['a1', 'a2']);
    const b = gate(log, 'b1');
    const bDone = share.run('b', b.run);
    await tick();
    expect(log).toEqual(['a1', 'a2', 'b1']);
    b.end();
    expect(await bDone).toBe('b1');
    a[0]!.end();
    await tick();
    expect(log).toEqual(['a1', 'a2', 'b1', 'a3']);
    for (const g of a) g.end();
    expect(await Promise.all(running)).toEqual(['a1', 'a2', 'a3', 'a4']);
  });

  it('serves the waiting organizations in turn, not in order of arrival', async () => {
    const share = new FairShare({ capacity: 2, perKey: 2, maxWaitMs: 1000 });
    const log: string[] = [];
    const first = [gate(log, 'x1'), gate(log, 'x2')];
    const busy = first.map((g) => share.run('x', g.run));
    await tick();
    // A burst from a, then one request each from b and c.
    const waiting = [gate(log, 'a1'), gate(log, 'a2'), gate(log, 'a3'), gate(log, 'b1'), gate(log, 'c1')];
    const keys = ['a', 'a', 'a', 'b', 'c'];
    const results = waiting.map((g, i) => share.run(keys[i]!, g.run));
    await tick();
    expect(share.waiting).toBe(5);
    for (const g of [...first, ...waiting]) {
      g.end();
      await tick();
    }
    await Promise.all([...busy, ...results]);
    expect(log).toEqual(['x1', 'x2', 'a1', 'b1', 'c1', 'a2', 'a3']);
  });

  it('shares the pool equally between the organizations at work, half of it for one alone', async () => {
    const share = new FairShare({ capacity: 10, maxWaitMs: 1000 });
    const log: string[] = [];
    const giant = Array.from({ length: 8 }, (_, i) => gate(log, `g${i + 1}`));
    const giantDone = giant.map((g) => share.run('giant', g.run));
    await tick();
    expect(log).toEqual(['g1', 'g2', 'g3', 'g4', 'g5']);
    // Four other organizations at work: the pool's equal part is two; the giant holds five, and waits.
    const others = ['b', 'c', 'd', 'e'].map((key) => ({ key, gate: gate(log, key) }));
    const othersDone = others.map(({ key, gate: g }) => share.run(key, g.run));
    await tick();
    expect(log).toEqual(['g1', 'g2', 'g3', 'g4', 'g5', 'b', 'c', 'd', 'e']);
    giant[0]!.end();
    await tick();
    // Still over its part (four running, part two): the freed connection stays free for the others.
    expect(log).toHaveLength(9);
    for (const { gate: g } of others) g.end();
    await Promise.all(othersDone);
    await tick();
    // Alone again: back to half the pool (four running, a fifth starts).
    expect(log).toEqual(['g1', 'g2', 'g3', 'g4', 'g5', 'b', 'c', 'd', 'e', 'g6']);
    for (const g of giant) g.end();
    await Promise.all(giantDone);
  });

  it('gives up after maxWaitMs with an OverloadedError, and the others go on', async () => {
    const share = new FairShare({ capacity: 1, maxWaitMs: 50 });
    const log: string[] = [];
    const holder = gate(log, 'long');
    const held = share.run('a', holder.run);
    await tick();
    const started = Date.now();
    await expect(share.run('b', async () => 'never')).rejects.toBeInstanceOf(OverloadedError);
    expect(Date.now() - started).toBeGreaterThanOrEqual(45);
    expect(share.waiting).toBe(0);
    holder.end();
    await held;
    expect(await share.run('b', async () => 'served')).toBe('served');
  });

  describe('in the process (the embedded database: operations that wait for no I/O)', () => {
    const work = (count: { done: number }) => async () => {
      for (const end = Date.now() + 2; Date.now() < end; );
      count.done++;
    };
    /** How many operations had ended when a timer due now (a connection to accept, a request to read) ran. */
    const doneWhenTimerRan = (count: { done: number }) => new Promise<number>((resolve) => setTimeout(() => resolve(count.done), 0));

    it('hands a freed slot over on a later turn of the event loop: the queue never holds it', async () => {
      const share = new FairShare({ capacity: 1, inProcess: true, maxWaitMs: 1000 });
      const holder = gate([], 'holder');
      const held = share.run('a', holder.run);
      await tick();
      const count = { done: 0 };
      const queued = Array.from({ length: 20 }, (_, i) => share.run(i % 2 ? 'a' : 'b', work(count)));
      holder.end();
      const atTimer = doneWhenTimerRan(count);
      await Promise.all([held, ...queued]);
      expect(count.done).toBe(20);
      expect(await atTimer).toBeLessThan(3);
    });

    it('starts even an operation that finds the slot free on a turn of its own: one after the other, they never hold it', async () => {
      const share = new FairShare({ capacity: 1, inProcess: true, maxWaitMs: 1000 });
      const count = { done: 0 };
      // Each starting as the previous one ends, as the requests read from many sockets in one turn.
      let chain: Promise<unknown> = Promise.resolve();
      for (let i = 0; i < 20; i++) chain = chain.then(() => share.run(i % 2 ? 'a' : 'b', work(count)));
      const atTimer = doneWhenTimerRan(count);
      await chain;
      expect(count.done).toBe(20);
      expect(await atTimer).toBeLessThan(3);
    });
  });

  it('lets work holding a turn read again without waiting for a second one', async () => {
    const share = new FairShare({ capacity: 1, maxWaitMs: 50 });
    const nested = await share.run('a', () => share.run('a', async () => 'inner'));
    expect(nested).toBe('inner');
  });

  it('frees the turn when the work fails', async () => {
    const share = new FairShare({ capacity: 1, maxWaitMs: 50 });
    await expect(share.run('a', async () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    expect(await share.run('a', async () => 'next')).toBe('next');
  });
});
