import { HttpException, NotFoundException, InternalServerErrorException } from '@nestjs/common';
import { describe, expect, it } from 'vitest';
import { ApiError } from './api-error';
import { imageEnvelope, translationEnvelope } from './error-envelope';
import { normalizeError } from './normalize-error';

/** Fastify raises these before a controller runs; Nest wraps them with the original as cause. */
function fastifyError(code: string, statusCode: number): HttpException {
  const cause = Object.assign(new Error('raw fastify message'), { code, statusCode });
  return new HttpException('raw fastify message', statusCode, { cause });
}

describe('normalizeError', () => {
  it('keeps an ApiError as thrown, with its extras and headers', () => {
    const error = new ApiError(429, 'rate_limited', 'Slow down', { limit: 60 }, { 'retry-after': '3' });
    expect(normalizeError(error)).toEqual({ status: 429, code: 'rate_limited', message: 'Slow down', extra: { limit: 60 }, headers: { 'retry-after': '3' }, unexpected: false });
  });

  it.each([
    ['FST_ERR_CTP_INVALID_JSON_BODY', 400, 400, 'invalid_json'],
    ['FST_ERR_CTP_EMPTY_JSON_BODY', 400, 400, 'invalid_json'],
    ['FST_ERR_CTP_BODY_TOO_LARGE', 413, 413, 'payload_too_large'],
    ['FST_ERR_CTP_INVALID_MEDIA_TYPE', 415, 415, 'unsupported_media_type'],
  ])('maps the wrapped framework error %s to %i %s', (code, raw, status, expected) => {
    const normalized = normalizeError(fastifyError(code, raw));
    expect(normalized).toMatchObject({ status, code: expected, unexpected: false });
    expect(normalized.message).not.toBe('raw fastify message');
  });

  it('maps framework HTTP exceptions by status', () => {
    expect(normalizeError(new NotFoundException('Cannot GET /x'))).toMatchObject({ status: 404, code: 'not_found', message: 'Cannot GET /x' });
  });

  it('never passes a server-side message to the client', () => {
    expect(normalizeError(new InternalServerErrorException('db password is hunter2'))).toMatchObject({ status: 500, code: 'internal', message: 'Internal error', unexpected: true });
    expect(normalizeError(new TypeError('x is undefined'))).toMatchObject({ status: 500, code: 'internal', message: 'Internal error', unexpected: true });
    expect(normalizeError('a thrown string')).toMatchObject({ status: 500, unexpected: true });
  });
});

describe('envelopes', () => {
  const quota = normalizeError(new ApiError(402, 'quota_exceeded', 'Limit reached', { api_limit_usage: 3, api_limit_max: 3 }));

  it('renders the translation envelope', () => {
    expect(translationEnvelope.render(quota)).toEqual({ error: 'quota_exceeded', message: 'Limit reached', api_limit_usage: 3, api_limit_max: 3 });
  });

  it('renders the image envelope, fatal only for token failures', () => {
    expect(imageEnvelope.render(quota)).toEqual({ error_message: 'Limit reached', error_fatal_status: false, api_limit_usage: 3, api_limit_max: 3 });
    expect(imageEnvelope.render(normalizeError(new ApiError(401, 'invalid_key', 'Unknown token')))).toEqual({ error_message: 'Unknown token', error_fatal_status: true });
    expect(imageEnvelope.render(normalizeError(new ApiError(403, 'forbidden', 'Inactive')))).toMatchObject({ error_fatal_status: true });
  });
});
