import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { API_KEY_RANDOM_LENGTH, apiKeyHint, apiKeyPrefix, generateApiKey, hashApiKey, isWellFormedApiKey } from './api-key-secret.util';

describe('API key secrets', () => {
  it('issues svc_test_ / svc_live_ plus 40 base62 characters', () => {
    expect(generateApiKey(true)).toMatch(/^svc_test_[0-9A-Za-z]{40}$/);
    expect(generateApiKey(false)).toMatch(/^svc_live_[0-9A-Za-z]{40}$/);
    expect(apiKeyPrefix(true)).toBe('svc_test_');
    expect(apiKeyPrefix(false)).toBe('svc_live_');
  });

  it('never repeats a key', () => {
    const keys = new Set(Array.from({ length: 1000 }, () => generateApiKey(true)));
    expect(keys.size).toBe(1000);
  });

  it('uses every base62 character about equally often', () => {
    const counts = new Map<string, number>();
    for (let i = 0; i < 2000; i++) {
      for (const c of generateApiKey(false).slice('svc_live_'.length)) counts.set(c, (counts.get(c) ?? 0) + 1);
    }
    // 80,000 draws over 62 characters: about 1290 each with a standard deviation near 35, so
    // these bounds only fail for a biased or broken generator.
    const expected = (2000 * API_KEY_RANDOM_LENGTH) / 62;
    expect(counts.size).toBe(62);
    for (const count of counts.values()) expect(Math.abs(count - expected)).toBeLessThan(expected * 0.2);
  });

  it('hashes the whole key as lowercase hex SHA-256', () => {
    const key = generateApiKey(true);
    expect(hashApiKey(key)).toBe(createHash('sha256').update(key).digest('hex'));
    expect(hashApiKey(key)).toMatch(/^[0-9a-f]{64}$/);
    expect(hashApiKey('svc_test_abc')).toBe('1a4bfd7b3d7776613d5c291f9a9413ba3aca90e6f41983c8329d661a2c8b8c04');
    expect(hashApiKey(key.replace('svc_test_', 'svc_live_'))).not.toBe(hashApiKey(key));
  });

  it('keeps the last four characters as the hint', () => {
    expect(apiKeyHint('svc_test_0123456789abcdefghijklmnopqrstuvwxyzAB9xQz')).toBe('9xQz');
  });

  it.each([
    ['', false],
    ['foo', false],
    ['svc_test_', false],
    ['svc_test_' + 'a'.repeat(31), false],
    ['svc_test_' + 'a'.repeat(32), true],
    ['svc_prod_' + 'a'.repeat(40), false],
    ['sk_live_' + 'a'.repeat(40), false],
    ['svc_live_' + 'a'.repeat(39) + '-', false],
    ['svc_live_' + 'a'.repeat(39) + 'é', false],
    [' svc_live_' + 'a'.repeat(40), false],
    ['svc_live_' + 'a'.repeat(129), false],
  ])('recognises the published format: %j -> %s', (candidate, expected) => {
    expect(isWellFormedApiKey(candidate)).toBe(expected);
  });

  it('accepts every key it issues', () => {
    for (let i = 0; i < 100; i++) expect(isWellFormedApiKey(generateApiKey(i % 2 === 0))).toBe(true);
  });
});
