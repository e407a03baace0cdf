import { Logger } from '@nestjs/common';
import { EngineError } from '../translation-engine';
import type { ApertiumMode } from './apertium-modes';
import { ApertiumPipeline, PipelineFailure } from './apertium-pipeline';

export interface PoolOptions {
  /** Most pipelines kept for the mode. */
  size: number;
  /** Most requests written into one pipeline before it has answered them. */
  depth: number;
  /** Stuck-pipeline bound for a short request. */
  timeoutMs: number;
  /** Segments after which a pipeline is replaced by a fresh one. */
  segmentsPerPipeline: number;
  /** The stages' environment. */
  env: NodeJS.ProcessEnv;
}

/**
 * Extra time per 1,000 input characters before a request counts as stuck. Apertium does far more
 * than 1,000 characters a second even on a busy machine, so only a hung pipeline gets there.
 */
const TIMEOUT_MS_PER_1000_CHARS = 1000;

interface Waiter {
  segments: number;
  resolve: (pipeline: ApertiumPipeline) => void;
  reject: (error: Error) => void;
}

/**
 * The warm pipelines of one mode. They start on first use and stay up. A request goes to the
 * least busy pipeline; a new one starts while fewer than `size` run and all are busy; a pipeline
 * takes up to `depth` requests at once (they follow each other through it), and further requests
 * queue in order. A pipeline that crashes or hangs is dropped (a new one starts on next use) and the request
 * is retried once on a fresh pipeline before it fails.
 *
 * After `segmentsPerPipeline` segments a pipeline takes no more requests and stops once it has
 * answered those it holds; the next request starts a fresh one (well under 0.1 s). lrx-proc keeps
 * about 90 bytes of every segment it has seen in null-flush mode, so a pipeline that lived
 * forever would grow without bound (docs/operations.md).
 */
export class ApertiumPool {
  private readonly pipelines = new Set<ApertiumPipeline>();
  /** Worn-out pipelines still answering the requests they hold. */
  private readonly retiring = new Set<ApertiumPipeline>();
  /**
   * Per pipeline, the segments handed to it and the requests holding it, both counted when it is
   * handed out (a request writes into it a moment later).
   */
  private readonly usage = new WeakMap<ApertiumPipeline, { segments: number; holders: number }>();
  private readonly waiting: Waiter[] = [];
  private closed = false;
  private readonly logger = new Logger('ApertiumEngine');

  constructor(
    private readonly mode: ApertiumMode,
    private readonly options: PoolOptions,
  ) {}

  async translate(segments: string[]): Promise<string[]> {
    try {
      return await this.attempt(segments);
    } catch (error) {
      if (!(error instanceof PipelineFailure) || this.closed) throw asEngineError(error);
      this.logger.warn(`${error.message}; retrying once on a new pipeline`);
    }
    try {
      return await this.attempt(segments);
    } catch (error) {
      throw asEngineError(error);
    }
  }

  /** Process ids of the pipelines that take requests, stage by stage. */
  pids(): number[][] {
    return [...this.pipelines].map((pipeline) => pipeline.pids);
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const waiter of this.waiting.splice(0)) waiter.reject(new EngineError('The Apertium engine is shutting down'));
    await Promise.all([...this.pipelines, ...this.retiring].map((pipeline) => pipeline.close()));
  }

  private async attempt(segments: string[]): Promise<string[]> {
    const pipeline = await this.acquire(segments.length);
    const chars = segments.reduce((sum, segment) => sum + segment.length, 0);
    try {
      return await pipeline.run(segments, this.options.timeoutMs + Math.ceil((chars * TIMEOUT_MS_PER_1000_CHARS) / 1000));
    } finally {
      this.release(pipeline);
    }
  }

  private acquire(segments: number): Promise<ApertiumPipeline> {
    if (this.closed) return Promise.reject(new EngineError('The Apertium engine is shutting down'));
    const pipeline = this.pick(segments);
    if (pipeline) return Promise.resolve(pipeline);
    return new Promise((resolve, reject) => this.waiting.push({ segments, resolve, reject }));
  }

  /** A pipeline that takes a request of `segments` now, started if need be; none when all are full. */
  private pick(segments: number): ApertiumPipeline | undefined {
    for (const pipeline of this.pipelines) if (this.usage.get(pipeline)!.segments >= this.options.segmentsPerPipeline) this.retire(pipeline);
    const pipeline = this.choose();
    if (pipeline) {
      const usage = this.usage.get(pipeline)!;
      usage.segments += segments;
      usage.holders++;
    }
    return pipeline;
  }

  private choose(): ApertiumPipeline | undefined {
    const free = this.leastBusy();
    if (free?.load === 0) return free;
    if (this.pipelines.size < this.options.size) return this.start();
    if (free && free.load < this.options.depth) return free;
    return undefined;
  }

  /** Hands the longest-waiting request a pipeline, if one can take it now. */
  private serveWaiter() {
    const waiter = this.waiting[0];
    const pipeline = waiter && this.pick(waiter.segments);
    if (!pipeline) return;
    this.waiting.shift();
    waiter.resolve(pipeline);
  }

  private retire(pipeline: ApertiumPipeline) {
    this.pipelines.delete(pipeline);
    this.retiring.add(pipeline);
    this.closeIfDone(pipeline);
  }

  private closeIfDone(pipeline: ApertiumPipeline) {
    if (this.usage.get(pipeline)!.holders > 0) return;
    this.retiring.delete(pipeline);
    void pipeline.close();
  }

  private leastBusy(): ApertiumPipeline | undefined {
    let best: ApertiumPipeline | undefined;
    for (const pipeline of this.pipelines) if (!best || pipeline.load < best.load) best = pipeline;
    return best;
  }

  private release(pipeline: ApertiumPipeline) {
    this.usage.get(pipeline)!.holders--;
    if (this.closed) return;
    if (this.retiring.has(pipeline)) this.closeIfDone(pipeline);
    // A failed pipeline was already dropped by `discard`.
    else if (!pipeline.alive) return;
    this.serveWaiter();
  }

  private start(): ApertiumPipeline {
    const pipeline = new ApertiumPipeline(this.mode.mode, this.mode.stages, this.options.env, (failed) => this.discard(failed));
    this.pipelines.add(pipeline);
    this.usage.set(pipeline, { segments: 0, holders: 0 });
    return pipeline;
  }

  private discard(pipeline: ApertiumPipeline) {
    // A retired pipeline fails on being closed, or while answering what it holds: nothing to replace.
    if (!this.pipelines.delete(pipeline)) {
      this.retiring.delete(pipeline);
      return;
    }
    if (this.closed) return;
    // The place it frees goes to whoever waits; otherwise the replacement starts on next use.
    this.serveWaiter();
  }
}

function asEngineError(error: unknown): EngineError {
  return error instanceof EngineError ? error : new EngineError((error as Error).message);
}
