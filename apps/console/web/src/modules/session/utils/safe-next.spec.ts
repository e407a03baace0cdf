import { describe, expect, it } from 'vitest';
import { safeNext } from './safe-next';

describe('safeNext', () => {
  it('keeps a path inside the console', () => {
    expect(safeNext('/keys?page=2')).toBe('/keys?page=2');
  });

  it.each([null, '', 'https://evil.example/', '//evil.example/x', '/\\evil.example', 'javascript:alert(1)'])('sends %j home', (next) => {
    expect(safeNext(next)).toBe('/');
  });
});
