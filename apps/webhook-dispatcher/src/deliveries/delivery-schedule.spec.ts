import { describe, expect, it } from 'vitest';
import { judgeResponse, noResponse } from './attempt-outcome';
import { MAX_RETRY_AFTER_MS, parseRetryAfter, retryDelayMs } from './delivery-schedule';

const SCHEDULE = [5, 300, 1800, 7200, 18000];

describe('retryDelayMs', () => {
  it('follows the schedule within ±10% jitter and stops after its last entry', () => {
    expect(retryDelayMs(SCHEDULE, 1, null, () => 0)).toBe(4500);
    expect(retryDelayMs(SCHEDULE, 1, null, () => 1)).toBe(5500);
    expect(retryDelayMs(SCHEDULE, 2, null, () => 0.5)).toBe(300_000);
    expect(retryDelayMs(SCHEDULE, 5, null, () => 0.5)).toBe(18_000_000);
    expect(retryDelayMs(SCHEDULE, 6, null)).toBeNull();
    for (let attempt = 1; attempt <= 5; attempt++) {
      const delay = retryDelayMs(SCHEDULE, attempt, null)!;
      expect(delay).toBeGreaterThanOrEqual(SCHEDULE[attempt - 1] * 900);
      expect(delay).toBeLessThanOrEqual(SCHEDULE[attempt - 1] * 1100);
    }
  });

  it("takes the receiver's Retry-After instead of the schedule, but never beyond the last attempt", () => {
    expect(retryDelayMs(SCHEDULE, 1, 60_000)).toBe(60_000);
    expect(retryDelayMs(SCHEDULE, 6, 60_000)).toBeNull();
  });
});

describe('parseRetryAfter', () => {
  const now = Date.parse('2024-11-22T10:00:00Z');

  it('reads seconds and HTTP dates, capped at an hour and never negative', () => {
    expect(parseRetryAfter('120', now)).toBe(120_000);
    expect(parseRetryAfter(' 0 ', now)).toBe(0);
    expect(parseRetryAfter('Fri, 22 Nov 2024 10:02:00 GMT', now)).toBe(120_000);
    expect(parseRetryAfter('Fri, 22 Nov 2024 09:00:00 GMT', now)).toBe(0);
    expect(parseRetryAfter('86400', now)).toBe(MAX_RETRY_AFTER_MS);
  });

  it.each([undefined, '', 'soon', '-5', '1.5'])('ignores %j', (value) => {
    expect(parseRetryAfter(value, now)).toBeNull();
  });
});

describe('judgeResponse', () => {
  it.each([200, 201, 204, 299])('counts %i as delivered', (status) => {
    expect(judgeResponse(status, undefined)).toMatchObject({ statusCode: status, delivered: true, permanent: false, error: null });
  });

  it.each([400, 401, 403, 404, 405, 413, 422])('gives up on %i at once', (status) => {
    expect(judgeResponse(status, undefined)).toMatchObject({ delivered: false, permanent: true, disableReason: null, error: expect.stringContaining('not retried') });
  });

  it('disables the endpoint on 410', () => {
    expect(judgeResponse(410, undefined)).toMatchObject({ permanent: true, disableReason: 'The receiver answered 410 Gone' });
  });

  it.each([408, 429, 500, 502, 503, 504, 100, 301, 302, 307, 308, 600])('retries %i', (status) => {
    expect(judgeResponse(status, undefined)).toMatchObject({ delivered: false, permanent: false, disableReason: null });
  });

  it('says why a redirect failed and keeps Retry-After', () => {
    expect(judgeResponse(302, undefined).error).toBe('The receiver redirected with 302; redirects are not followed');
    expect(judgeResponse(429, '7').retryAfterMs).toBe(7000);
    expect(judgeResponse(503, '7').retryAfterMs).toBe(7000);
  });

  it('retries when no answer came', () => {
    expect(noResponse('connect ECONNREFUSED 127.0.0.1:9')).toMatchObject({ statusCode: null, permanent: false, error: 'connect ECONNREFUSED 127.0.0.1:9' });
  });
});
