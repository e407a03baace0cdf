import { describe, expect, it } from 'vitest';
import { redactRecord, redactSecrets } from './redact';

describe('redactSecrets', () => {
  it('masks every credential by its prefix and keeps the rest', () => {
    const line = 'GET /access-token/img_AbC123 key=svc_live_0123456789abcdefABCDEF0123456789 secret whsec_zzzz reviewer rvw_Q1';
    expect(redactSecrets(line)).toBe('GET /access-token/img_*** key=svc_live_*** secret whsec_*** reviewer rvw_***');
  });

  it('masks secrets that were percent-encoded, once or twice, and those glued to a word', () => {
    expect(redactSecrets('/access-token/%69mg_AbC123')).toBe('/access-token/img_***');
    expect(redactSecrets('/access-token/%2569%6Dg_AbC123?k=%73vc_live_%41bc')).toBe('/access-token/img_***?k=svc_live_***');
    expect(redactSecrets('form access_token=x_img_AbC123')).toBe('form access_token=x_img_***');
  });

  it('masks every string of a log record', () => {
    expect(redactRecord({ msg: 'GET /access-token/img_Q', err: { message: 'bad rvw_Q' }, n: 1 })).toEqual({ msg: 'GET /access-token/img_***', err: { message: 'bad rvw_***' }, n: 1 });
  });

  it('leaves text without credentials alone', () => {
    expect(redactSecrets('/api/v1/translate?x=svc_')).toBe('/api/v1/translate?x=svc_');
  });
});
