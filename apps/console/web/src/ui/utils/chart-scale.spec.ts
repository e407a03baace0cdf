import { describe, expect, it } from 'vitest';
import { chartScale } from './chart-scale';

describe('chartScale', () => {
  it.each([
    [[17], { top: 20, ticks: [0, 5, 10, 15, 20] }],
    [[22, 3], { top: 25, ticks: [0, 5, 10, 15, 20, 25] }],
    [[1], { top: 1, ticks: [0, 1] }],
    [[3], { top: 3, ticks: [0, 1, 2, 3] }],
    [[98_765], { top: 100_000, ticks: [0, 20_000, 40_000, 60_000, 80_000, 100_000] }],
    [[0, 0], { top: 1, ticks: [0, 1] }],
    [[], { top: 1, ticks: [0, 1] }],
  ])('labels %j on whole, even steps up to a round top', (values, expected) => {
    expect(chartScale(values)).toEqual(expected);
  });

  it('scales to use: a limit far above the highest bar is left off, so one conversion shows', () => {
    expect(chartScale([1, 0], 50)).toEqual({ top: 1, ticks: [0, 1], limit: undefined });
    expect(chartScale([0], 50).limit).toBeUndefined();
  });

  it('draws a limit within reach of the highest bar, and makes room for it', () => {
    const scale = chartScale([30], 50);
    expect(scale.limit).toBe(50);
    expect(scale.top).toBeGreaterThanOrEqual(50);
    expect(chartScale([900], 500)).toMatchObject({ top: 1000, limit: 500 });
  });
});
