import { describe, expect, it } from 'vitest';
import { reviewOutcome } from './review-outcome';

describe('reviewOutcome', () => {
  it.each([
    [2, true, true, 'users.pool.byBoth'],
    [1, false, false, 'users.pool.byOwn'],
    [1, false, true, 'users.pool.byOwn'],
    [0, true, true, 'users.pool.byPlatform'],
    // Opted in, but the platform has nobody of the language: refused, not left waiting.
    [0, false, true, 'users.pool.refused'],
    [0, true, false, 'users.pool.refused'],
  ])('own %i, platform available %s, chosen %s: %s', (own, available, chosen, expected) => {
    expect(reviewOutcome(own, available, chosen)).toBe(expected);
  });
});
