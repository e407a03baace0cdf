import { describe, expect, it } from 'vitest';
import { redactSecrets } from './redact';

describe('redactSecrets', () => {
  it('masks every credential by its prefix and keeps the rest', () => {
    const line = 'GET /access-token/img_AbC123 key=svc_live_0123456789abcdefABCDEF0123456789 secret whsec_zzzz reviewer rvw_Q1';
    expect(redactSecrets(line)).toBe('GET /access-token/img_*** key=svc_live_*** secret whsec_*** reviewer rvw_***');
  });

  it('leaves text without credentials alone', () => {
    expect(redactSecrets('/api/v1/translate?x=svc_')).toBe('/api/v1/translate?x=svc_');
  });
});
