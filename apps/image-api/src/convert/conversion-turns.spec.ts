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
      turns.run(async () => {
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
});
