import type { S3Client } from '@aws-sdk/client-s3';
import type { MetricsRegistry } from '@platform/service-kit';

/** What became of a request: answered (2xx), refused (4xx, a missing object included), failed (5xx), or no answer at all. */
type Outcome = 'ok' | 'client_error' | 'server_error' | 'unreachable';

function outcomeOf(error: unknown): Outcome {
  const status = (error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;
  if (status === undefined) return 'unreachable';
  return status >= 500 ? 'server_error' : 'client_error';
}

/** Counts and times every request of the client by operation (`PutObject`), its retries included. */
export function observeS3(s3: S3Client, metrics: MetricsRegistry): S3Client {
  const requests = metrics.counter('s3_requests_total', 'Requests to the S3-compatible store, by operation and outcome (ok, client_error, server_error, unreachable)', ['operation', 'outcome']);
  const seconds = metrics.histogram('s3_request_duration_seconds', 'How long requests to the S3-compatible store took, by operation, retries included', ['operation'], [
    0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10,
  ]);
  s3.middlewareStack.add(
    (next, context) => async (args) => {
      const operation = context.commandName?.replace(/Command$/, '') ?? 'unknown';
      const timer = seconds.startTimer({ operation });
      try {
        const result = await next(args);
        requests.inc({ operation, outcome: 'ok' });
        return result;
      } catch (error) {
        requests.inc({ operation, outcome: outcomeOf(error) });
        throw error;
      } finally {
        timer();
      }
    },
    { step: 'initialize', name: 'platformMetrics' },
  );
  return s3;
}
