import { parseRetryAfter } from './delivery-schedule';

/** How one attempt ended, as recorded in the delivery log. */
export interface AttemptOutcome {
  statusCode: number | null;
  /** Why it failed, when the status alone does not say it; null on success. */
  error: string | null;
  delivered: boolean;
  /** Another attempt cannot succeed: the series ends here. */
  permanent: boolean;
  /** The receiver asked us to stop: the endpoint is disabled with this reason. */
  disableReason: string | null;
  /** The receiver's Retry-After in ms, replacing the schedule's next delay. */
  retryAfterMs: number | null;
}

const failure = (fields: Partial<AttemptOutcome>): AttemptOutcome => ({
  statusCode: null,
  error: null,
  delivered: false,
  permanent: false,
  disableReason: null,
  retryAfterMs: null,
  ...fields,
});

/**
 * 2xx delivers. A 4xx says the request itself is unwelcome, so it is not retried, except 408 and
 * 429 which ask for a later try; 410 Gone also disables the endpoint. Redirects are not followed
 * (the target would escape the URL check) and, like 5xx and any other status, are retried.
 */
export function judgeResponse(status: number, retryAfter: string | undefined, now = Date.now()): AttemptOutcome {
  if (status >= 200 && status < 300) return failure({ statusCode: status, delivered: true });
  if (status === 410) {
    const reason = 'The receiver answered 410 Gone';
    return failure({ statusCode: status, error: `${reason}; the endpoint was disabled`, permanent: true, disableReason: reason });
  }
  if (status >= 400 && status < 500 && status !== 408 && status !== 429) {
    return failure({ statusCode: status, error: `The receiver refused the request with ${status}; it is not retried`, permanent: true });
  }
  const error = status >= 300 && status < 400 ? `The receiver redirected with ${status}; redirects are not followed` : null;
  return failure({ statusCode: status, error, retryAfterMs: parseRetryAfter(retryAfter, now) });
}

/** No answer: the URL was refused, or the connection failed or timed out. Retried. */
export function noResponse(error: string): AttemptOutcome {
  return failure({ error });
}
