import { InjectQueue } from '@nestjs/bull';
import { Injectable } from '@nestjs/common';
import { QueueName } from '@platform/contracts';
import type { Queue } from 'bull';
import { MetricsRegistry } from '@platform/service-kit';
import type { Redis } from 'ioredis';
import { WebhookDispatcherConfig } from '../config/webhook-dispatcher.config';

/** Whether an attempt may start now, and if not, why. */
export type Admission =
  /** `failing`: the endpoint's last attempt failed. */
  | { kind: 'admitted'; token: string; probe: boolean; failing: boolean }
  /** The endpoint has its fill of attempts under way: wait in its lane until one ends. */
  | { kind: 'busy' }
  /** Attempts to failing endpoints hold their share of this process's slots. */
  | { kind: 'crowded' }
  /** The endpoint's circuit is open for this long yet. */
  | { kind: 'open'; remainingMs: number };

type Admitted = Extract<Admission, { kind: 'admitted' }>;

/** How an attempt went, as far as the endpoint's health is concerned; `withdrawn`: it was not made. */
export type Verdict = 'answered' | 'failed' | 'withdrawn';

/** Besides the attempt itself: resolving the host (at most 5 s) and recording the attempt. */
const ATTEMPT_MARGIN_MS = 15_000;
/** Each failed probe doubles the cool-down, up to this many times the configured one. */
const MAX_COOLDOWN_FACTOR = 16;
/** Waiters are also woken by their own delay; the list only saves them waiting that long. */
const WAITERS_TTL_MS = 3600_000;
/** A circuit's state outlives its longest cool-down by this much (FINISH's PEXPIRE). */
const CIRCUIT_TTL_MARGIN_MS = 3600_000;
/**
 * The lanes whose circuit is not closed, scored by when their circuit's state expires: what
 * `webhook_circuits_open` counts. Apart from the lanes' keys, in a slot of its own.
 */
export const OPEN_CIRCUITS = 'webhooks:circuits:open';

const NOW = `local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)`;

/** Pops as many waiters as the endpoint has room for (none while its circuit is open). */
const WAKE = `local function wake(now, cap)
  redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
  local openUntil = tonumber(redis.call('HGET', KEYS[2], 'open_until'))
  if openUntil and now < openUntil then return {} end
  local limit = openUntil and 1 or cap
  local woken = {}
  for i = 1, limit - redis.call('ZCARD', KEYS[1]) do
    local id = redis.call('LPOP', KEYS[3])
    if not id then break end
    woken[#woken + 1] = id
  end
  return woken
end`;

/**
 * KEYS: in-flight, circuit, waiters. ARGV: token, cap, lease ms, the job's own id. Returns the
 * answer, when admitted the endpoint's failures in a row, and whom to wake: places freed by
 * attempts whose process died (their leases ran out) go to waiters, not only to whoever asks.
 */
const ADMIT = `${NOW}
${WAKE}
redis.call('LREM', KEYS[3], 0, ARGV[4])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
local openUntil = tonumber(redis.call('HGET', KEYS[2], 'open_until'))
if openUntil and now < openUntil then return {'open', openUntil - now, {}} end
local limit = openUntil and 1 or tonumber(ARGV[2])
if redis.call('ZCARD', KEYS[1]) >= limit then return {'busy', 0, {}} end
redis.call('ZADD', KEYS[1], now + tonumber(ARGV[3]), ARGV[1])
redis.call('PEXPIRE', KEYS[1], ARGV[3])
return {openUntil and 'probe' or 'admitted', tonumber(redis.call('HGET', KEYS[2], 'failures')) or 0, wake(now, tonumber(ARGV[2]))}`;

/** KEYS: in-flight. ARGV: token, lease ms. Extends an attempt's lease while it is still held. */
const RENEW = `${NOW}
if redis.call('ZADD', KEYS[1], 'XX', 'CH', now + tonumber(ARGV[2]), ARGV[1]) == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[2]) end
return 0`;

/** KEYS: in-flight, circuit, waiters. ARGV: job id, cap, ttl ms. Returns whom to wake. */
const WAIT = `${NOW}
${WAKE}
redis.call('RPUSH', KEYS[3], ARGV[1])
redis.call('PEXPIRE', KEYS[3], ARGV[3])
return wake(now, tonumber(ARGV[2]))`;

/**
 * KEYS: in-flight, circuit, waiters. ARGV: token, verdict, probe (1/0), cap, failures to open,
 * cool-down ms, longest cool-down ms. Returns the cool-down the circuit opened with (0: none)
 * and whom to wake: when it opened, every waiter, so that each puts itself off to the cool-down's
 * end instead of sleeping out its own longer delay.
 */
const FINISH = `${NOW}
${WAKE}
redis.call('ZREM', KEYS[1], ARGV[1])
local opened = 0
if ARGV[2] == 'answered' then
  redis.call('DEL', KEYS[2])
elseif ARGV[2] == 'failed' then
  local failures = redis.call('HINCRBY', KEYS[2], 'failures', 1)
  local openUntil = tonumber(redis.call('HGET', KEYS[2], 'open_until'))
  if openUntil and ARGV[3] == '1' then
    opened = math.min(tonumber(redis.call('HGET', KEYS[2], 'cooldown')) * 2, tonumber(ARGV[7]))
  elseif not openUntil and failures >= tonumber(ARGV[5]) then
    opened = tonumber(ARGV[6])
  end
  redis.call('PEXPIRE', KEYS[2], tonumber(ARGV[7]) + ${CIRCUIT_TTL_MARGIN_MS})
  if opened > 0 then
    redis.call('HSET', KEYS[2], 'open_until', now + opened, 'cooldown', opened)
    local all = redis.call('LRANGE', KEYS[3], 0, -1)
    redis.call('DEL', KEYS[3])
    return {opened, all}
  end
end
return {opened, wake(now, tonumber(ARGV[4]))}`;

interface LaneCommands {
  webhookLaneAdmit(inflight: string, circuit: string, waiters: string, token: string, cap: number, leaseMs: number, jobId: string): Promise<[string, number, string[]]>;
  webhookLaneRenew(inflight: string, token: string, leaseMs: number): Promise<number>;
  webhookLaneWait(inflight: string, circuit: string, waiters: string, jobId: string, cap: number, ttlMs: number): Promise<string[]>;
  webhookLaneFinish(
    inflight: string,
    circuit: string,
    waiters: string,
    token: string,
    verdict: Verdict,
    probe: number,
    cap: number,
    failures: number,
    cooldownMs: number,
    maxCooldownMs: number,
  ): Promise<[number, string[]]>;
}

/**
 * One lane per webhook endpoint, in Redis so that every replica sees the same state:
 *
 * - at most WEBHOOK_ENDPOINT_CONCURRENCY attempts to the endpoint are under way at once, each
 *   holding a lease that its process renews while the attempt runs, as it renews its job's
 *   lock (QUEUE_LOCK_DURATION_MS), so that the place of a process that died is free again
 *   about when its job is taken up again;
 * - the endpoint's other deliveries wait as delayed jobs, listed in the lane, and the end of an
 *   attempt promotes as many of them as there is room for;
 * - a circuit breaker: WEBHOOK_CIRCUIT_FAILURES failed attempts in a row open it, and for the
 *   cool-down no attempt starts; then a single probe attempt runs (half-open), which closes the
 *   circuit when the receiver answers, or opens it again for twice as long when it fails.
 *
 * Within a process, attempts to endpoints whose last attempt failed hold at most half of its
 * WORKER_CONCURRENCY slots, so however many receivers hang at once, the others keep the rest.
 */
@Injectable()
export class EndpointLanes {
  private readonly redis: Redis & LaneCommands;
  private readonly failingBudget: number;
  /** Attempts this process has under way to endpoints whose last attempt failed. */
  private failingUnderWay = 0;
  /** The lease renewal of each attempt this process has under way, by its token. */
  private readonly renewals = new Map<string, NodeJS.Timeout>();
  private readonly leaseMs: number;
  private readonly renewEveryMs: number;

  constructor(
    @InjectQueue(QueueName.Webhooks) private readonly queue: Queue,
    private readonly config: WebhookDispatcherConfig,
    metrics: MetricsRegistry,
  ) {
    this.redis = queue.client as Redis & LaneCommands;
    this.redis.defineCommand('webhookLaneAdmit', { numberOfKeys: 3, lua: ADMIT });
    this.redis.defineCommand('webhookLaneRenew', { numberOfKeys: 1, lua: RENEW });
    this.redis.defineCommand('webhookLaneWait', { numberOfKeys: 3, lua: WAIT });
    this.redis.defineCommand('webhookLaneFinish', { numberOfKeys: 3, lua: FINISH });
    this.failingBudget = Math.max(1, Math.floor(config.WORKER_CONCURRENCY / 2));
    this.leaseMs = config.QUEUE_LOCK_DURATION_MS;
    this.renewEveryMs = config.QUEUE_LOCK_RENEW_MS ?? Math.floor(config.QUEUE_LOCK_DURATION_MS / 4);
    metrics.gauge('webhook_circuits_open', "Webhook endpoints whose circuit is open or half-open: no attempt starts before its cool-down ends, then one probe", [], async (open) => {
      if (this.redis.status !== 'ready') return;
      const [, [, count]] = (await this.redis.multi().zremrangebyscore(OPEN_CIRCUITS, '-inf', Date.now()).zcard(OPEN_CIRCUITS).exec()) as [unknown, [unknown, number]];
      open.set(count);
    });
  }

  /** The longest an attempt holds its place in the lane. */
  get attemptMs(): number {
    return this.config.WEBHOOK_TIMEOUT_MS + ATTEMPT_MARGIN_MS;
  }

  /** How many wait in the lane. */
  waiting(lane: string): Promise<number> {
    return this.redis.llen(keys(lane)[2]);
  }

  /** `jobId` is the job asking: it leaves the lane's waiters, whatever the answer. */
  async admit(lane: string, jobId: string): Promise<Admission> {
    const token = `${jobId}:${process.pid}:${Date.now()}`;
    const [inflight] = keys(lane);
    const [kind, count, woken] = await this.redis.webhookLaneAdmit(...keys(lane), token, this.config.WEBHOOK_ENDPOINT_CONCURRENCY, this.leaseMs, jobId);
    if (kind === 'open') return { kind, remainingMs: count };
    if (kind === 'busy') return { kind };
    const renewal = setInterval(() => void this.redis.webhookLaneRenew(inflight, token, this.leaseMs).catch(() => undefined), this.renewEveryMs).unref();
    this.renewals.set(token, renewal);
    // Should this fail, the waiters come back by their own delay.
    await this.promote(woken).catch(() => undefined);
    const admission = { kind: 'admitted', token, probe: kind === 'probe', failing: count > 0 } as const;
    if (!admission.failing) return admission;
    if (this.failingUnderWay >= this.failingBudget) {
      await this.release(lane, admission, 'withdrawn');
      return { kind: 'crowded' };
    }
    this.failingUnderWay++;
    return admission;
  }

  /**
   * Lists a delayed job as waiting in the lane, to be promoted when an attempt ends. Should an
   * attempt have ended since `admit`, the job is woken at once.
   */
  async wait(lane: string, jobId: string): Promise<void> {
    const woken = await this.redis.webhookLaneWait(...keys(lane), jobId, this.config.WEBHOOK_ENDPOINT_CONCURRENCY, WAITERS_TTL_MS);
    await this.promote(woken);
  }

  /** Ends an admitted attempt. Returns the cool-down when this attempt opened the circuit, else 0. */
  async finish(lane: string, admission: Admitted, verdict: Verdict): Promise<number> {
    if (admission.failing) this.failingUnderWay--;
    return this.release(lane, admission, verdict);
  }

  private async release(lane: string, admission: Admitted, verdict: Verdict): Promise<number> {
    clearInterval(this.renewals.get(admission.token));
    this.renewals.delete(admission.token);
    const { WEBHOOK_ENDPOINT_CONCURRENCY, WEBHOOK_CIRCUIT_FAILURES, WEBHOOK_CIRCUIT_COOLDOWN_MS } = this.config;
    const [opened, woken] = await this.redis.webhookLaneFinish(
      ...keys(lane),
      admission.token,
      verdict,
      admission.probe ? 1 : 0,
      WEBHOOK_ENDPOINT_CONCURRENCY,
      WEBHOOK_CIRCUIT_FAILURES,
      WEBHOOK_CIRCUIT_COOLDOWN_MS,
      WEBHOOK_CIRCUIT_COOLDOWN_MS * MAX_COOLDOWN_FACTOR,
    );
    await this.promote(woken);
    await this.trackCircuit(lane, admission, verdict, opened).catch(() => undefined);
    return opened;
  }

  /** Keeps OPEN_CIRCUITS in step: a circuit (re)opened is listed, one closed by its probe's answer is not. */
  private async trackCircuit(lane: string, admission: Admitted, verdict: Verdict, opened: number): Promise<void> {
    if (opened > 0) await this.redis.zadd(OPEN_CIRCUITS, Date.now() + this.config.WEBHOOK_CIRCUIT_COOLDOWN_MS * MAX_COOLDOWN_FACTOR + CIRCUIT_TTL_MARGIN_MS, lane);
    else if (admission.probe && verdict === 'answered') await this.redis.zrem(OPEN_CIRCUITS, lane);
  }

  /** A waiter that ran meanwhile (woken by its own delay) is no longer delayed: nothing to do. */
  private async promote(jobIds: string[]): Promise<void> {
    for (const id of jobIds) {
      const job = await this.queue.getJob(id);
      if (job && (await job.isDelayed())) await job.promote().catch(() => undefined);
    }
  }
}

/** A Redis Cluster hash tag keeps the three keys of a lane in one slot, as the scripts need. */
function keys(lane: string): [string, string, string] {
  const prefix = `webhooks:lane:{${lane}}`;
  return [`${prefix}:inflight`, `${prefix}:circuit`, `${prefix}:waiters`];
}
