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
  /** The stages' environment. */
  env: NodeJS.ProcessEnv;
}

/**
 * Extra time per 1,000 input characters before a request counts as stuck. Apertium does far more
 * than 1,000 characters a second even on a busy machine, so only a hung pipeline gets there.
 */
const TIMEOUT_MS_PER_1000_CHARS = 1000;

interface Waiter {
  resolve: (pipeline: ApertiumPipeline) => void;
  reject: (error: Error) => void;
}

/**
 * The warm pipelines of one mode. They start on first use and stay up. A request goes to the
 * least busy pipeline; a new one starts while fewer than `size` run and all are busy; a pipeline
 * takes up to `depth` requests at once (they follow each other through it), and further requests
 * queue in order. A pipeline that crashes or hangs is dropped (a new one starts on next use) and the request
 * is retried once on a fresh pipeline before it fails.
 */
export class ApertiumPool {
  private readonly pipelines = new Set<ApertiumPipeline>();
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

  /** Process ids of the running pipelines, stage by stage. */
  pids(): number[][] {
    return [...this.pipelines].map((pipeline) => pipeline.pids);
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const waiter of this.waiting.splice(0)) waiter.reject(new EngineError('The Apertium engine is shutting down'));
    await Promise.all([...this.pipelines].map((pipeline) => pipeline.close()));
  }

  private async attempt(segments: string[]): Promise<string[]> {
    const pipeline = await this.acquire();
    const chars = segments.reduce((sum, segment) => sum + segment.length, 0);
    try {
      return await pipeline.run(segments, this.options.timeoutMs + Math.ceil((chars * TIMEOUT_MS_PER_1000_CHARS) / 1000));
    } finally {
      this.release(pipeline);
    }
  }

  private acquire(): Promise<ApertiumPipeline> {
    if (this.closed) return Promise.reject(new EngineError('The Apertium engine is shutting down'));
    const free = this.leastBusy();
    if (free?.load === 0) return Promise.resolve(free);
    if (this.pipelines.size < this.options.size) return Promise.resolve(this.start());
    if (free && free.load < this.options.depth) return Promise.resolve(free);
    return new Promise((resolve, reject) => this.waiting.push({ resolve, reject }));
  }

  private leastBusy(): ApertiumPipeline | undefined {
    let best: ApertiumPipeline | undefined;
    for (const pipeline of this.pipelines) if (!best || pipeline.load < best.load) best = pipeline;
    return best;
  }

  private release(pipeline: ApertiumPipeline) {
    // A failed pipeline was already dropped by `discard`.
    if (!pipeline.alive || this.closed) return;
    const waiter = this.waiting.shift();
    if (waiter) waiter.resolve(pipeline);
  }

  private start(): ApertiumPipeline {
    const pipeline = new ApertiumPipeline(this.mode.mode, this.mode.stages, this.options.env, (failed) => this.discard(failed));
    this.pipelines.add(pipeline);
    return pipeline;
  }

  private discard(pipeline: ApertiumPipeline) {
    this.pipelines.delete(pipeline);
    if (this.closed) return;
    // The place it frees goes to whoever waits; otherwise the replacement starts on next use.
    const waiter = this.waiting.shift();
    if (waiter) waiter.resolve(this.start());
  }
}

function asEngineError(error: unknown): EngineError {
  return error instanceof EngineError ? error : new EngineError((error as Error).message);
}
