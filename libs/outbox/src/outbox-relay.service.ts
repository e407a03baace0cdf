import { getQueueToken } from '@nestjs/bull';
import { BeforeApplicationShutdown, Inject, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import type { TraceCarrier } from '@platform/service-kit';
import type { Queue } from 'bull';
import pg from 'pg';
import { DataSource, In } from 'typeorm';
import { OutboxMessage } from './outbox-message.entity';
import { OUTBOX_CHANNEL } from './outbox.service';

export const OUTBOX_RELAY_OPTIONS = Symbol('OUTBOX_RELAY_OPTIONS');

export interface OutboxRelayOptions {
  /** Queues whose rows this relay moves to Redis; the app must register them with QueueModule. */
  queues: string[];
  /** Poll interval; a committed row also wakes the relay at once through LISTEN/NOTIFY. */
  intervalMs?: number;
}

const BATCH_SIZE = 100;
const ENQUEUE_TIMEOUT_MS = 5000;
/** Sent rows are kept a day for inspection, then deleted. */
const PRUNE_EVERY_MS = 3600_000;

/**
 * Moves committed outbox rows onto their Bull queues. Rows are claimed with
 * `FOR UPDATE SKIP LOCKED`, so relays in several replicas share the work without sending a row
 * twice, and each job gets a fixed Bull id (`outbox:<id>`), so a row sent whose `dispatched_at`
 * never committed is not queued twice either. While a queue's Redis is away its rows stay in
 * Postgres and go out once it is back.
 */
@Injectable()
export class OutboxRelay implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger('OutboxRelay');
  private readonly queues = new Map<string, Queue>();
  private readonly intervalMs: number;
  private timer?: NodeJS.Timeout;
  private running?: Promise<void>;
  private pending = false;
  private stopped = false;
  private listener?: pg.Client;
  private lastProblem?: string;
  private prunedAt = 0;

  constructor(
    @Inject(OUTBOX_RELAY_OPTIONS) private readonly options: OutboxRelayOptions,
    private readonly dataSource: DataSource,
    private readonly moduleRef: ModuleRef,
  ) {
    this.intervalMs = options.intervalMs ?? 500;
  }

  onApplicationBootstrap(): void {
    for (const name of this.options.queues) this.queues.set(name, this.moduleRef.get<Queue>(getQueueToken(name), { strict: false }));
    this.nudge();
  }

  async beforeApplicationShutdown(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.running;
    await this.listener?.end().catch(() => undefined);
  }

  /** Runs a pass now, or right after the one under way. */
  nudge(): void {
    this.pending = true;
    if (!this.running && !this.stopped) this.running = this.drain();
  }

  private async drain(): Promise<void> {
    clearTimeout(this.timer);
    while (this.pending && !this.stopped) {
      this.pending = false;
      try {
        await this.pass();
      } catch (error) {
        this.problem('outbox relay pass failed', error);
      }
    }
    this.running = undefined;
    if (!this.stopped) this.timer = setTimeout(() => this.nudge(), this.intervalMs);
  }

  private async pass(): Promise<void> {
    await this.listen();
    // A queue whose Redis is away would hold claimed rows until its commands time out.
    const ready = [...this.queues.values()].filter((queue) => queue.client.status === 'ready');
    if (ready.length === 0) return;
    while (!this.stopped && (await this.relayBatch(ready)) === BATCH_SIZE);
    if (Date.now() - this.prunedAt > PRUNE_EVERY_MS) await this.prune();
  }

  /** Sends up to BATCH_SIZE rows; returns how many went out. */
  private relayBatch(queues: Queue[]): Promise<number> {
    const byName = new Map(queues.map((queue) => [queue.name, queue]));
    return this.dataSource.transaction(async (manager) => {
      const rows = await manager
        .createQueryBuilder(OutboxMessage, 'm')
        .where('m.dispatched_at IS NULL')
        .andWhere('m.queue IN (:...names)', { names: [...byName.keys()] })
        .orderBy('m.id')
        .limit(BATCH_SIZE)
        .setLock('pessimistic_write')
        .setOnLocked('skip_locked')
        .getMany();
      const sent: string[] = [];
      for (const group of byQueueInOrder(rows)) {
        try {
          await this.send(byName.get(group[0].queue)!, group);
          sent.push(...group.map((row) => row.id));
        } catch (error) {
          await manager.update(OutboxMessage, group[0].id, { attempts: () => 'attempts + 1', lastError: String(error) });
          this.problem('could not enqueue outbox row', error, group[0].queue);
          // Redis is in trouble; the rest waits for the next pass.
          break;
        }
      }
      if (sent.length > 0) await manager.update(OutboxMessage, { id: In(sent) }, { dispatchedAt: () => 'now()' });
      if (sent.length === rows.length) this.lastProblem = undefined;
      return sent.length;
    });
  }

  /** Adds the rows' jobs in one MULTI: one round trip to Redis, and all of them or none. */
  private async send(queue: Queue, rows: OutboxMessage[]): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`enqueueing on ${queue.name} took over ${ENQUEUE_TIMEOUT_MS} ms`)), ENQUEUE_TIMEOUT_MS);
    });
    const jobs = rows.map((row) => ({ name: row.jobName, data: { ...row.payload, ...traceOf(row) }, opts: { ...row.options, jobId: row.jobId ?? `outbox:${row.id}` } }));
    try {
      await Promise.race([queue.addBulk(jobs), deadline]);
    } finally {
      clearTimeout(timer);
    }
  }

  private async prune(): Promise<void> {
    await this.dataSource
      .createQueryBuilder()
      .delete()
      .from(OutboxMessage)
      .where(`dispatched_at < now() - interval '1 day'`)
      .andWhere('queue IN (:...names)', { names: [...this.queues.keys()] })
      .execute();
    this.prunedAt = Date.now();
  }

  /** Keeps a connection that LISTENs for committed rows; polling covers any time without one. */
  private async listen(): Promise<void> {
    if (this.listener || this.stopped) return;
    // Deadlines of its own: a server that hangs while it connects must not hold up every later pass.
    const client = new pg.Client({ connectionString: (this.dataSource.options as { url?: string }).url, connectionTimeoutMillis: 5000, query_timeout: 5000 });
    client.on('notification', (message) => {
      if (message.payload && this.queues.has(message.payload)) this.nudge();
    });
    const drop = () => {
      if (this.listener === client) this.listener = undefined;
    };
    client.on('error', drop);
    client.on('end', drop);
    try {
      await client.connect();
      await client.query(`LISTEN ${OUTBOX_CHANNEL}`);
      this.listener = client;
    } catch (error) {
      await client.end().catch(() => undefined);
      this.problem('outbox relay cannot listen for new rows', error);
    }
  }

  /** One log line per distinct problem rather than one per poll. */
  private problem(msg: string, error: unknown, queue?: string): void {
    const err = error instanceof Error ? error.message : String(error);
    if (err === this.lastProblem) return;
    this.lastProblem = err;
    this.logger.warn({ msg, queue, err });
  }
}

/**
 * The row writer's trace context, for the job's data as `enqueue` puts it there; never the
 * relay's own, which has nothing to do with the job.
 */
function traceOf(row: OutboxMessage): TraceCarrier {
  const carrier: TraceCarrier = {};
  if (row.traceparent) carrier.traceparent = row.traceparent;
  if (row.tracestate) carrier.tracestate = row.tracestate;
  return carrier;
}

/** Consecutive rows of one queue together, in the rows' order. */
function byQueueInOrder(rows: OutboxMessage[]): OutboxMessage[][] {
  const groups: OutboxMessage[][] = [];
  for (const row of rows) {
    const last = groups.at(-1);
    if (last?.[0].queue === row.queue) last.push(row);
    else groups.push([row]);
  }
  return groups;
}
