import type { FastifyInstance } from 'fastify';
import type { MetricsRegistry } from './metrics.registry';

/**
 * Rate, errors and duration of every request a service answers, by route template (`/api/v1/batches/:id`;
 * `unmatched` for a request no route took) and status class, so that the number of series does
 * not grow with the URLs clients send.
 */
export function recordHttpMetrics(fastify: FastifyInstance, metrics: MetricsRegistry): void {
  const duration = metrics.histogram('http_request_duration_seconds', 'HTTP requests answered, by method, route template and status class, and how long they took', ['method', 'route', 'status_class'], [
    0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10,
  ]);
  fastify.addHook('onResponse', async (request, reply) => {
    const statusClass = `${Math.floor(reply.statusCode / 100)}xx`;
    duration.observe({ method: request.method, route: request.routeOptions?.url ?? 'unmatched', status_class: statusClass }, reply.elapsedTime / 1000);
  });
}
