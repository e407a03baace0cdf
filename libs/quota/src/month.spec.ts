import { describe, expect, it } from 'vitest';
import { utcMonth } from './month';

describe('utcMonth', () => {
  it('uses the UTC calendar month whatever the offset of the moment', () => {
    expect(utcMonth(new Date('2031-02-01T00:30:00+01:00'))).toBe('2031-01');
    expect(utcMonth(new Date('2031-12-31T20:00:00-05:00'))).toBe('2032-01');
  });
});
