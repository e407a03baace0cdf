import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import type { Duplex } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readDocument } from './openapi-document';
import { runFuzz, type FuzzReport, type FuzzTarget } from './openapi-fuzzer';
import { RequestGenerator } from './request-generator';
import { sampleFiles } from './sample-files';

const SECRET = 'svc_test_Zx8Qm2Lr7Tn4Vb9Kp3Wc6Yd1Hf5Gj0Sa';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const bearer = [{ bearer: [] }];
const envelopeSchema = { $ref: '#/components/schemas/Error' };
const json = (schema: object) => ({ content: { 'application/json': { schema } } });
const id = { name: 'id', in: 'path', required: true, schema: { type: 'string', format: 'uuid' } };

/** A small API in the style of the real ones: bearer keys, JSON, multipart and CSV bodies. */
const document = {
  openapi: '3.0.0',
  info: { title: 'Items', version: '1' },
  components: {
    securitySchemes: { bearer: { type: 'http', scheme: 'bearer' }, token: { type: 'apiKey', in: 'header', name: 'X-Access-Token' } },
    schemas: {
      Error: { type: 'object', required: ['error', 'message'], properties: { error: { type: 'string' }, message: { type: 'string' } } },
      NewItem: {
        type: 'object',
        required: ['name', 'count'],
        properties: { name: { type: 'string', maxLength: 50, example: 'sofa' }, count: { type: 'integer', minimum: 1, maximum: 10 }, tags: { type: 'array', maxItems: 3, items: { type: 'string', enum: ['red', 'blue'] } } },
      },
    },
  },
  paths: {
    '/items': {
      get: { security: bearer, responses: { 200: json({ type: 'array', items: { type: 'string' } }), 401: json(envelopeSchema) } },
      post: {
        security: bearer,
        parameters: [{ name: 'Idempotency-Key', in: 'header', schema: { type: 'string', maxLength: 255 } }],
        requestBody: { required: true, content: { 'application/json': { schema: { $ref: '#/components/schemas/NewItem' } } } },
        responses: { 201: json({ type: 'object' }), 422: json(envelopeSchema) },
      },
    },
    '/items/{id}': {
      parameters: [id],
      get: { security: bearer, parameters: [{ name: 'format', in: 'query', schema: { type: 'string', enum: ['json', 'csv'] } }], responses: { 200: json({ type: 'object' }) } },
      delete: { security: bearer, responses: { 200: json({ type: 'object' }) } },
    },
    '/items/{id}/terms': {
      put: { security: bearer, parameters: [id], requestBody: { content: { 'text/csv': { schema: { type: 'string' } } } }, responses: { 200: json({ type: 'object' }) } },
    },
    '/upload': {
      post: {
        security: [{ token: [] }],
        requestBody: {
          content: {
            'multipart/form-data': {
              schema: { type: 'object', required: ['file'], properties: { file: { type: 'string', format: 'binary' }, format: { type: 'string', enum: ['webp', 'avif'] } } },
            },
          },
        },
        responses: { 200: json({ type: 'object' }) },
      },
    },
    '/health': { get: { responses: { 200: json({ type: 'object' }) } } },
  },
};

const OPERATIONS = ['GET /items', 'POST /items', 'GET /items/{id}', 'DELETE /items/{id}', 'PUT /items/{id}/terms', 'POST /upload', 'GET /health'];

const envelope = (error: string, message: string) => ({ error, message });

/**
 * Answers everything in the envelope except three planted defects: POST /items crashes (500)
 * on a name that is not a short string, GET /items/{id} answers a non-UUID id with a plain-text
 * 404, and DELETE /items/{id} drops the connection when the credential is not the valid one.
 */
async function startServer(): Promise<FastifyInstance> {
  const server = Fastify({
    clientErrorHandler: (_error: Error, socket: Duplex) => {
      const body = JSON.stringify(envelope('bad_request', 'Malformed HTTP request'));
      socket.end(`HTTP/1.1 400 Bad Request\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`);
    },
    frameworkErrors: (_error: Error, _request: FastifyRequest, reply: FastifyReply) => void reply.code(400).send(envelope('bad_request', 'Bad URL')),
  });
  server.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));
  server.setErrorHandler((error: { statusCode?: number; message: string }, _request, reply) => {
    const status = error.statusCode && error.statusCode < 500 ? error.statusCode : 500;
    void reply.code(status).send(envelope(status === 500 ? 'internal' : 'bad_request', status === 500 ? 'Internal error' : error.message));
  });
  server.setNotFoundHandler((_request, reply) => void reply.code(404).send(envelope('not_found', 'Not found')));
  server.addHook('preHandler', async (request, reply) => {
    if (request.url === '/health' || request.url.startsWith('/upload')) return;
    if (request.headers.authorization === `Bearer ${SECRET}`) return;
    if (request.method === 'DELETE') {
      request.raw.socket.destroy();
      return reply;
    }
    return reply.code(401).send(envelope('invalid_key', 'Invalid key'));
  });
  server.get('/health', async () => ({ ok: true }));
  server.get('/items', async () => ['sofa']);
  server.post('/items', async (request, reply) => {
    const body = request.body as { name?: unknown; count?: unknown } | null;
    if (!body || typeof body !== 'object') return reply.code(422).send(envelope('invalid', 'Not an object'));
    if (typeof body.name !== 'string' || body.name.length > 1000) throw new Error('planted crash');
    return reply.code(201).send({ ok: true });
  });
  server.get('/items/:id', async (request, reply) => {
    const { id: itemId } = request.params as { id: string };
    if (!UUID.test(itemId)) return reply.code(404).type('text/plain').send('no such item');
    return { id: itemId };
  });
  server.delete('/items/:id', async () => ({ ok: true }));
  server.put('/items/:id/terms', async () => ({ ok: true }));
  server.post('/upload', async (request, reply) => {
    if (request.headers['x-access-token'] !== SECRET) return reply.code(401).send(envelope('invalid_key', 'Invalid token'));
    if (!String(request.headers['content-type']).startsWith('multipart/form-data; boundary=')) return reply.code(415).send(envelope('unsupported_media_type', 'Not multipart'));
    return { ok: true };
  });
  await server.listen({ port: 0, host: '127.0.0.1' });
  return server;
}

describe('OpenAPI fuzzer', () => {
  let server: FastifyInstance;
  let target: FuzzTarget;
  let report: FuzzReport;

  beforeAll(async () => {
    server = await startServer();
    const address = server.server.address() as { port: number };
    target = { baseUrl: `http://127.0.0.1:${address.port}`, document, envelope: 'translation', credentials: { bearer: SECRET, token: SECRET } };
    report = await runFuzz(target, { requests: 700, seed: 7, concurrency: 4 });
  }, 120_000);
  afterAll(() => server.close());

  it('sends every request and reaches every operation of the document', () => {
    expect(report.total).toBe(700);
    expect(Object.values(report.byStatus).reduce((a, b) => a + b, 0)).toBe(700);
    for (const operation of OPERATIONS) expect(report.byOperation[operation]).toBeGreaterThanOrEqual(80);
    // Mostly valid requests: most get past authentication and validation.
    expect(report.byStatus['200'] + report.byStatus['201']).toBeGreaterThan(300);
  });

  it('finds exactly the planted 500, the non-envelope error and the dropped connection', () => {
    const found = report.problems.map(({ method, path, status, reason }) => ({ method, path, status, reason }));
    expect(found).toEqual(
      expect.arrayContaining([
        { method: 'POST', path: '/items', status: 500, reason: 'server error 500' },
        { method: 'GET', path: '/items/{id}', status: 404, reason: 'error answer with Content-Type text/plain, not JSON' },
        { method: 'DELETE', path: '/items/{id}', status: 0, reason: expect.stringMatching(/^connection failed \((ECONNRESET|socket hang up)\)$/) },
      ]),
    );
    expect(found).toHaveLength(3);
    for (const problem of report.problems) {
      expect(problem.request).toMatch(/^seed 7 #\d+ \[.+\]: /);
      expect(problem.count).toBeGreaterThan(0);
    }
  });

  it('generates the same requests for the same seed and other requests for another seed', async () => {
    const context = { model: readDocument(document), secrets: { bearer: [SECRET], token: [SECRET] }, files: await sampleFiles() };
    const [one, two] = [new RequestGenerator(context), new RequestGenerator(context)];
    const indexes = Array.from({ length: 60 }, (_, i) => i);
    const first = indexes.map((i) => one.generate(7, i));
    expect(indexes.map((i) => two.generate(7, i))).toEqual(first);
    expect(indexes.map((i) => two.generate(8, i))).not.toEqual(first);
  });

  it('reports the same run twice for the same seed', async () => {
    const options = { requests: 150, seed: 11, concurrency: 1 };
    const [a, b] = [await runFuzz(target, options), await runFuzz(target, options)];
    expect(b).toEqual(a);
  }, 60_000);

  it('rotates through a comma-separated list of credentials', async () => {
    const report = await runFuzz({ ...target, credentials: { bearer: `svc_test_unknown000000000000000000000000, ${SECRET}`, token: SECRET } }, { requests: 70, seed: 3 });
    expect(report.byStatus['401']).toBeGreaterThan(5);
    expect(report.byStatus['200']).toBeGreaterThan(5);
  });
});
