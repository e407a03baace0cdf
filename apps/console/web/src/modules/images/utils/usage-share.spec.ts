import { describe, expect, it } from 'vitest';
import { usageShare } from './usage-share';

describe('usageShare', () => {
  it('is the used part of the limit, within 0 and 1', () => {
    expect(usageShare(0, 500)).toBe(0);
    expect(usageShare(125, 500)).toBe(0.25);
    expect(usageShare(900, 500)).toBe(1);
  });

  it('counts a limit of 0 as used up', () => {
    expect(usageShare(0, 0)).toBe(1);
  });
});
