import { Webhook, WebhookVerificationError } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { generateWebhookEventId, generateWebhookSecret, signWebhook, webhookSignatureHeaders } from './webhook-signature';

describe('Standard Webhooks signing', () => {
  it('issues secrets as whsec_ + base64 of a 32-byte key, never the same twice', () => {
    const secret = generateWebhookSecret();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(Buffer.from(secret.slice('whsec_'.length), 'base64')).toHaveLength(32);
    expect(generateWebhookSecret()).not.toBe(secret);
  });

  it('issues event ids as msg_ + 27 base62 characters', () => {
    expect(generateWebhookEventId()).toMatch(/^msg_[0-9A-Za-z]{27}$/);
  });

  it('signs exactly as the standardwebhooks reference library does', () => {
    const secret = generateWebhookSecret();
    const body = JSON.stringify({ type: 'batch.completed', data: { text: 'Grüße, 世界 🌍' } });
    const at = new Date('2024-11-22T10:00:00.900Z');
    expect(signWebhook(secret, 'msg_1', Math.floor(at.getTime() / 1000), body)).toBe(new Webhook(secret).sign('msg_1', at, body));
  });

  it('produces headers a standardwebhooks receiver accepts, and only for the body that was signed', () => {
    const secret = generateWebhookSecret();
    const body = JSON.stringify({ type: 'batch.completed', timestamp: new Date().toISOString(), data: { job: 'job_1' } });
    const headers = webhookSignatureHeaders(secret, 'msg_abc', body);
    expect(headers).toEqual({ 'webhook-id': 'msg_abc', 'webhook-timestamp': expect.stringMatching(/^\d{10}$/), 'webhook-signature': expect.stringMatching(/^v1,[A-Za-z0-9+/]{43}=$/) });
    expect(new Webhook(secret).verify(body, headers)).toEqual(JSON.parse(body));

    expect(() => new Webhook(secret).verify(body.replace('job_1', 'job_2'), headers)).toThrow(WebhookVerificationError);
    expect(() => new Webhook(generateWebhookSecret()).verify(body, headers)).toThrow(WebhookVerificationError);
    expect(() => new Webhook(secret).verify(body, { ...headers, 'webhook-id': 'msg_other' })).toThrow(WebhookVerificationError);
  });
});
