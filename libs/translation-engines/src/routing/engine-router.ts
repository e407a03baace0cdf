import { Logger, type OnApplicationShutdown } from '@nestjs/common';
import { combinations, type MetricsRegistry } from '@platform/service-kit';
import type { Counter, Histogram } from 'prom-client';
import { EngineError, UnsupportedPairError, type EngineRequest, type LanguagePair, type TranslationEngine } from '../translation-engine';

export interface RoutedTranslation {
  /** The translated segments, in the order of the request's. */
  segments: string[];
  /** The engine that made them. */
  engine: string;
  /** With a formality asked for: whether that engine applied it. */
  formalityApplied?: boolean;
}

interface Offer {
  engine: TranslationEngine;
  pairs: LanguagePair[];
}

const samePair = (a: LanguagePair, b: LanguagePair) => a.source === b.source && a.target === b.target;

/** How a call to an engine ended: translated, failed (`EngineError`), or the engine no longer had the pair. */
const OUTCOMES = ['ok', 'error', 'unsupported'] as const;

interface EngineMetrics {
  calls: Counter<string>;
  seconds: Histogram<string>;
  failovers: Counter<string>;
}

function engineMetrics(metrics: MetricsRegistry, names: string[]): EngineMetrics {
  const others = names.flatMap((from) => names.filter((to) => to !== from).map((to) => ({ from, to })));
  return {
    calls: metrics.counter('translation_engine_requests_total', 'Calls to each translation engine, by outcome (ok, error, unsupported)', ['engine', 'outcome'], combinations({ engine: names, outcome: OUTCOMES })),
    seconds: metrics.histogram('translation_engine_request_duration_seconds', 'How long calls to each translation engine took, failed ones included', ['engine'], [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30], combinations({ engine: names })),
    failovers: metrics.counter('translation_engine_failovers_total', 'Calls that went on to the next engine after one failed, by the engine that failed and the one that took over', ['from', 'to'], others),
  };
}

/**
 * Spreads translation over the configured engines. A pair goes first to its route
 * (TRANSLATION_ROUTES) when that engine offers it, then to the engines that do it directly in
 * configured order, then to those that only pivot; when one fails (`EngineError`) the next takes
 * over, so only all of them failing fails the request.
 *
 * An engine that cannot be asked for its pairs keeps offering the pairs it listed last: a request
 * for them meets the engine's failure (503, retry later) rather than a 422 as if the pair never
 * existed, and `GET /api/v1/languages` does not shrink while an engine restarts.
 */
export class EngineRouter implements OnApplicationShutdown {
  private readonly logger = new Logger(EngineRouter.name);
  /** What each engine listed when it last answered. */
  private readonly lastListed = new Map<TranslationEngine, LanguagePair[]>();
  private readonly unreachable = new Set<TranslationEngine>();
  private readonly metrics?: EngineMetrics;

  constructor(
    readonly engines: readonly TranslationEngine[],
    /** `source-target` -> the engine name that takes the pair first. */
    private readonly routes: ReadonlyMap<string, string> = new Map(),
    metrics?: MetricsRegistry,
  ) {
    if (engines.length === 0) throw new Error('EngineRouter needs at least one engine');
    this.metrics = metrics && engineMetrics(metrics, engines.map((engine) => engine.name));
  }

  /**
   * Every pair some engine offers, once each (without `via`), sorted. Throws `EngineError` only
   * when no engine offers anything because one could not be asked.
   */
  async pairs(): Promise<LanguagePair[]> {
    const keys = new Set((await this.offers()).flatMap(({ pairs }) => pairs.map(({ source, target }) => `${source}>${target}`)));
    return [...keys].sort().map((key) => {
      const [source, target] = key.split('>');
      return { source, target };
    });
  }

  /** Targets into which an engine offering them applies a request's formality (DeepL, for the targets it lists as formal). */
  async formalityTargets(): Promise<Set<string>> {
    const offers = await this.offers();
    return new Set(offers.flatMap(({ engine, pairs }) => pairs.map(({ target }) => target).filter((target) => engine.appliesFormality?.(target))));
  }

  /** Throws `UnsupportedPairError` when no engine offers the pair, else the last engine's failure once every one has failed. */
  async translate(request: EngineRequest): Promise<RoutedTranslation> {
    const pair = { source: request.source, target: request.target };
    const candidates = await this.candidates(pair);
    if (candidates.length === 0) throw new UnsupportedPairError(pair);
    const failures: Error[] = [];
    for (const [index, engine] of candidates.entries()) {
      const timer = this.metrics?.seconds.startTimer({ engine: engine.name });
      try {
        const segments = await engine.translate(request);
        if (segments.length !== request.segments.length) {
          throw new EngineError(`Engine ${engine.name} returned ${segments.length} translations for ${request.segments.length} segments`);
        }
        this.metrics?.calls.inc({ engine: engine.name, outcome: 'ok' });
        return {
          segments,
          engine: engine.name,
          ...(request.formality && { formalityApplied: engine.appliesFormality?.(request.target) ?? false }),
        };
      } catch (error) {
        // An engine may have dropped the pair since it listed it: the next one may still have it.
        if (!(error instanceof EngineError) && !(error instanceof UnsupportedPairError)) throw error;
        failures.push(error);
        const next = candidates[index + 1];
        this.metrics?.calls.inc({ engine: engine.name, outcome: error instanceof EngineError ? 'error' : 'unsupported' });
        if (next) this.metrics?.failovers.inc({ from: engine.name, to: next.name });
        this.logger.warn(`${engine.name} failed ${pair.source}->${pair.target}${next ? `, ${next.name} takes over` : ''}: ${error.message}`);
      } finally {
        timer?.();
      }
    }
    throw failures.findLast((error) => error instanceof EngineError) ?? failures[0];
  }

  /** Engines that hold resources (Apertium's processes) release them as the app's last shutdown step. */
  async onApplicationShutdown(): Promise<void> {
    await Promise.all(this.engines.map((engine) => (engine as Partial<OnApplicationShutdown>).onApplicationShutdown?.()));
  }

  /** The engines able to do the pair, in the order they are tried. */
  private async candidates(pair: LanguagePair): Promise<TranslationEngine[]> {
    const offers = await this.offers();
    const offering = (direct: boolean) =>
      offers.filter(({ pairs }) => pairs.some((offered) => samePair(offered, pair) && !offered.via === direct)).map(({ engine }) => engine);
    const ordered = [...offering(true), ...offering(false)];
    const routed = this.routes.get(`${pair.source}-${pair.target}`);
    return [...ordered.filter((engine) => engine.name === routed), ...ordered.filter((engine) => engine.name !== routed)];
  }

  private async offers(): Promise<Offer[]> {
    let failure: EngineError | undefined;
    const offers = await Promise.all(
      this.engines.map(async (engine) => {
        try {
          const pairs = await engine.pairs();
          this.lastListed.set(engine, pairs);
          if (this.unreachable.delete(engine)) this.logger.log(`${engine.name} lists its language pairs again (${pairs.length})`);
          return { engine, pairs };
        } catch (error) {
          if (!(error instanceof EngineError)) throw error;
          failure = error;
          // Logged once per outage, not on every request that looks the pairs up.
          if (!this.unreachable.has(engine)) {
            this.unreachable.add(engine);
            this.logger.warn(`${engine.name} could not list its language pairs, keeping the ${this.lastListed.get(engine)?.length ?? 0} it listed before: ${error.message}`);
          }
          return { engine, pairs: this.lastListed.get(engine) ?? [] };
        }
      }),
    );
    if (failure && offers.every(({ pairs }) => pairs.length === 0)) throw failure;
    return offers;
  }
}
