import { describe, expect, it } from 'vitest';
import { ConversionTurns } from './conversion-turns';

describe('ConversionTurns', () => {
  it('runs at most its size at once and the rest in arrival order, through failures', async () => {
    const turns = new ConversionTurns(2);
    let running = 0;
    let most = 0;
    const started: number[] = [];
    const gates = Array.from({ length: 5 }, () => {
      let resolve!: () => void;
      return { promise: new Promise<void>((r) => (resolve = r)), resolve: () => resolve() };
    });
    const tasks = gates.map((gate, i) =>
      turns.run(1, async () => {
        started.push(i);
        most = Math.max(most, ++running);
        await gate.promise;
        running -= 1;
        if (i === 1) throw new Error('conversion failed');
        return i;
      }),
    );
    const settled = Promise.allSettled(tasks);
    for (const gate of gates) {
      await new Promise((resolve) => setImmediate(resolve));
      gate.resolve();
    }
    const results = await settled;
    expect(results.map((r) => (r.status === 'fulfilled' ? r.value : 'failed'))).toEqual([0, 'failed', 2, 3, 4]);
    expect(started).toEqual([0, 1, 2, 3, 4]);
    expect(most).toBe(2);
  });

  it('keeps the tasks running together within the pixel budget, in arrival order, and runs a heavier one alone', async () => {
    const turns = new ConversionTurns(4, 10);
    const events: string[] = [];
    const gates = new Map<string, () => void>();
    const task = (name: string, weight: number) =>
      turns.run(weight, async () => {
        events.push(`start ${name}`);
        await new Promise<void>((resolve) => gates.set(name, resolve));
        events.push(`end ${name}`);
      });
    const tick = () => new Promise((resolve) => setImmediate(resolve));
    const all = Promise.all([task('a', 6), task('b', 3), task('c', 12), task('d', 1)]);
    await tick();
    // a and b fit (9 of 10); c waits for a budget of its own, and d waits behind c.
    expect(events).toEqual(['start a', 'start b']);
    gates.get('a')!();
    await tick();
    expect(events).toEqual(['start a', 'start b', 'end a']);
    gates.get('b')!();
    await tick();
    expect(events.slice(3)).toEqual(['end b', 'start c']);
    gates.get('c')!();
    await tick();
    expect(events.slice(5)).toEqual(['end c', 'start d']);
    gates.get('d')!();
    await all;
  });
});
