import { describe, expect, it } from 'vitest';
import { formatRemaining, warnBeforeMs } from './lease-clock';

describe('the lease clock', () => {
  it('shows what is left rounded up to the second, in minutes or hours', () => {
    expect(formatRemaining(899_001)).toBe('15:00');
    expect(formatRemaining(61_000)).toBe('1:01');
    expect(formatRemaining(500)).toBe('0:01');
    expect(formatRemaining(-5)).toBe('0:00');
    expect(formatRemaining(3_725_000)).toBe('1:02:05');
  });

  it('warns a minute ahead, earlier than the last fifth only for short leases', () => {
    expect(warnBeforeMs(900)).toBe(60_000);
    expect(warnBeforeMs(60)).toBe(12_000);
  });
});
