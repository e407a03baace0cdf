import pg from 'pg';

/** node-postgres's error for a query that outlived its `query_timeout`. */
export const QUERY_TIMEOUT_MESSAGE = 'Query read timeout';

type Callback = (error: Error | null, result?: unknown) => void;

/**
 * A pg client that gives up its connection when a query outlives `query_timeout`. node-postgres
 * fails such a query at the deadline but keeps waiting for the server's answer on the same
 * connection: released to the pool as usual (TypeORM releases without an error), it would be
 * handed to the next caller, whose queries would queue behind the unanswered one. Ending the
 * client at once marks it for the pool to drop on release, and closes the socket, so the next
 * caller gets a fresh connection.
 */
export class DeadlineClient extends pg.Client {
  private dropped = false;

  // The overloads of pg's `query` all end up here; their argument shapes are pg's concern.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  override query(...args: any[]): any {
    const at = args.findIndex((arg, i) => i > 0 && typeof arg === 'function');
    if (at > 0) {
      const callback = args[at] as Callback;
      args[at] = (error: Error | null, result?: unknown) => {
        this.dropAfterTimeout(error);
        callback(error, result);
      };
      return super.query(...(args as Parameters<pg.Client['query']>));
    }
    const result: unknown = super.query(...(args as Parameters<pg.Client['query']>));
    if (result instanceof Promise) result.catch((error: Error) => this.dropAfterTimeout(error));
    return result;
  }

  private dropAfterTimeout(error: Error | null): void {
    if (this.dropped || error?.message !== QUERY_TIMEOUT_MESSAGE) return;
    this.dropped = true;
    this.end().catch(() => undefined);
  }
}
