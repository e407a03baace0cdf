import { describe, expect, it } from 'vitest';
import { incomingUrlAttributes, originOf, outgoingUrlAttributes } from './span-urls';

describe('URLs in spans', () => {
  it('records a request path and query with secrets masked as in the request log, encoded ones included', () => {
    expect(incomingUrlAttributes('/api/v1/batches')).toEqual({ 'url.path': '/api/v1/batches' });
    expect(incomingUrlAttributes('/access-token/%69mg_AbC123?key=svc_live_XyZ&q=a?b')).toEqual({
      'url.path': '/access-token/img_***',
      'url.query': 'key=svc_live_***&q=a?b',
    });
    expect(incomingUrlAttributes('/v1/x?')).toEqual({ 'url.path': '/v1/x' });
  });

  it('records only the origin of a request this service makes, whatever its path holds', () => {
    expect(outgoingUrlAttributes('https://hooks.example.com')).toEqual({ 'url.full': 'https://hooks.example.com', 'url.path': undefined, 'url.query': undefined });
    expect(originOf({ protocol: 'https:', hostname: 'hooks.example.com', port: 8443 })).toBe('https://hooks.example.com:8443');
    expect(originOf({ hostname: '127.0.0.1', port: '80' })).toBe('http://127.0.0.1:80');
    expect(originOf({ protocol: 'http:', hostname: '::1', port: 3000 })).toBe('http://[::1]:3000');
    expect(originOf({ protocol: 'http:', hostname: '[::1]' })).toBe('http://[::1]');
    expect(originOf({ protocol: 'http:', host: 'engine' })).toBe('http://engine');
  });
});
