import { HttpException, NotFoundException, InternalServerErrorException } from '@nestjs/common';
import { describe, expect, it } from 'vitest';
import { ApiError } from './api-error';
import { DependencyUnavailableError } from './dependency-outage';
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

describe('dependency outages', () => {
  const pgError = (code: string) => Object.assign(new Error('server said no'), { code, severity: 'FATAL' });
  const s3Error = (name: string, httpStatusCode: number, fault: 'client' | 'server') => Object.assign(new Error(name), { name, $fault: fault, $metadata: { httpStatusCode } });
  const queryFailed = (driverError: Error) => Object.assign(new Error('query failed'), { name: 'QueryFailedError', driverError });

  it.each([
    ['Postgres admin shutdown 57P01', pgError('57P01'), 'the database'],
    ['Postgres cannot connect now 57P03', pgError('57P03'), 'the database'],
    ['Postgres connection failure 08006', pgError('08006'), 'the database'],
    ['Postgres too many connections 53300', pgError('53300'), 'the database'],
    ['TypeORM around 57P01', queryFailed(pgError('57P01')), 'the database'],
    ['the pool timing out', new Error('timeout exceeded when trying to connect'), 'the database'],
    ['a connection dropped mid-query', queryFailed(new Error('Connection terminated unexpectedly')), 'the database'],
    ['Postgres statement_timeout 57014', queryFailed(pgError('57014')), 'the database'],
    ['Postgres lock_timeout 55P03', queryFailed(pgError('55P03')), 'the database'],
    ['Postgres idle_in_transaction_session_timeout 25P03', pgError('25P03'), 'the database'],
    ["the client's own query deadline", queryFailed(new Error('Query read timeout')), 'the database'],
    ['connection refused', Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' }), 'a backing service'],
    ['refused on every address', new AggregateError([Object.assign(new Error('x'), { code: 'ECONNREFUSED' })], 'all failed'), 'a backing service'],
    ['ioredis giving up', Object.assign(new Error('Reached the max retries per request limit'), { name: 'MaxRetriesPerRequestError' }), 'Redis'],
    ['ioredis offline', new Error("Stream isn't writeable and enableOfflineQueue options is false"), 'Redis'],
    ['an ioredis command past its commandTimeout', new Error('Command timed out'), 'Redis'],
    ['S3 SlowDown', s3Error('SlowDown', 503, 'server'), 'image storage'],
    ['S3 internal error', s3Error('InternalError', 500, 'server'), 'image storage'],
    ['S3 unreachable', Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED', $metadata: {} }), 'image storage'],
    ['a declared outage', new DependencyUnavailableError('the translation engine', 'every engine failed'), 'the translation engine'],
  ])('answers %s with 503 service_unavailable', (_, error, dependency) => {
    expect(normalizeError(error)).toMatchObject({ status: 503, code: 'service_unavailable', dependency, unexpected: false });
    expect(normalizeError(error).message).toBe(`Service temporarily unavailable: ${dependency} cannot be reached. Retry later`);
  });

  it.each([
    ['a Postgres constraint violation', pgError('23505')],
    ['an S3 client error', s3Error('NoSuchKey', 404, 'client')],
    ['a code-less error with another message', new Error('Connection terminated by the user, who is not a database')],
  ])('keeps %s a 500', (_, error) => {
    expect(normalizeError(error)).toMatchObject({ status: 500, unexpected: true });
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
