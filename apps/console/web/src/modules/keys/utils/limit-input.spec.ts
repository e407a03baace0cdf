import { describe, expect, it } from 'vitest';
import { limitText, parseLimit } from './limit-input';

describe('limit fields', () => {
  it('reads an empty field as no limit and a figure as that number', () => {
    expect(parseLimit('  ')).toBeNull();
    expect(parseLimit('5000')).toBe(5000);
  });

  it('shows no limit as an empty field', () => {
    expect(limitText(null)).toBe('');
    expect(limitText(0)).toBe('0');
  });
});
