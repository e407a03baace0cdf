import { Logger, OnApplicationShutdown } from '@nestjs/common';
import { EngineRequest, LanguagePair, TranslationEngine, UnsupportedPairError } from '../translation-engine';
import { allocatorLibrary, type ApertiumAllocator } from './apertium-allocator';
import type { ModePair } from './apertium-languages';
import { discoverModes } from './apertium-modes';
import { ApertiumPool } from './apertium-pool';
import { fromStream, toStream } from './apertium-stream';

export interface ApertiumOptions {
  /** Where the installed modes are; default `/usr/share/apertium/modes`. */
  modesDir?: string;
  /** ISO 639-1 code of the language that bridges pairs without a direct mode; default `es`. */
  pivotLanguage?: string;
  /** Warm pipelines per mode; default 1. */
  pipelinesPerMode?: number;
  /** Requests in flight in one pipeline at once; default 4. */
  requestsPerPipeline?: number;
  /** Stuck-pipeline bound for a short request, in ms; default 15,000. */
  timeoutMs?: number;
  /** Segments after which a pipeline is replaced by a fresh one; default 200,000. */
  segmentsPerPipeline?: number;
  /** malloc of the stages; default tcmalloc, the C library's own where tcmalloc is not installed. */
  allocator?: ApertiumAllocator;
}

const pairKey = (source: string, target: string) => `${source}-${target}`;

/**
 * Apertium from the Debian packages, as warm pipelines (see ApertiumPipeline). Pairs are the
 * installed modes between EU languages, plus `a -> pivot -> b` wherever both halves exist and no
 * direct mode does. Hints are not used: Apertium's dictionaries decide every word. Usable
 * without Nest: construct it, translate, `close()`.
 */
export class ApertiumEngine implements TranslationEngine, OnApplicationShutdown {
  readonly name = 'apertium';
  private readonly pools = new Map<string, ApertiumPool>();
  private readonly routes = new Map<string, ApertiumPool[]>();
  private readonly pivot: string;
  /** The mode behind each direct pair, e.g. `{ source: 'en', target: 'es', mode: 'eng-spa' }`. */
  readonly modes: ModePair[];

  constructor(options: ApertiumOptions = {}) {
    const logger = new Logger(ApertiumEngine.name);
    const modesDir = options.modesDir ?? '/usr/share/apertium/modes';
    const pivot = (this.pivot = options.pivotLanguage ?? 'es');
    const allocator = options.allocator ?? 'tcmalloc';
    const preload = allocatorLibrary(allocator);
    if (allocator !== 'system' && !preload) logger.warn(`${allocator} is not installed (Debian: libtcmalloc-minimal4); Apertium runs on the C library's malloc`);
    const poolOptions = {
      size: options.pipelinesPerMode ?? 1,
      depth: options.requestsPerPipeline ?? 4,
      timeoutMs: options.timeoutMs ?? 15_000,
      segmentsPerPipeline: options.segmentsPerPipeline ?? 200_000,
      // Stable, UTF-8 behaviour regardless of the service's locale.
      env: { ...process.env, LC_ALL: 'C.UTF-8', ...(preload && { LD_PRELOAD: preload }) },
    };

    const { modes, skipped } = discoverModes(modesDir);
    this.modes = modes.map(({ source, target, mode }) => ({ source, target, mode }));
    for (const { mode, reason } of skipped) logger.warn(`Apertium mode ${mode} is left out: ${reason}`);
    if (modes.length === 0) logger.warn(`No Apertium modes between EU languages in ${modesDir}: install the apertium-* packages`);

    for (const mode of modes) {
      const pool = new ApertiumPool(mode, poolOptions);
      this.pools.set(mode.mode, pool);
      this.routes.set(pairKey(mode.source, mode.target), [pool]);
    }
    for (const into of modes.filter((mode) => mode.target === pivot)) {
      for (const out of modes.filter((mode) => mode.source === pivot && mode.target !== into.source)) {
        const key = pairKey(into.source, out.target);
        if (!this.routes.has(key)) this.routes.set(key, [this.pools.get(into.mode)!, this.pools.get(out.mode)!]);
      }
    }
  }

  /** Pairs done through the pivot say so (`via`), so that an engine with a direct model wins them. */
  async pairs(): Promise<LanguagePair[]> {
    return [...this.routes.keys()].sort().map((key) => (this.routes.get(key)!.length > 1 ? { ...splitKey(key), via: this.pivot } : splitKey(key)));
  }

  async translate(request: EngineRequest): Promise<string[]> {
    const route = this.routes.get(pairKey(request.source, request.target));
    if (!route) throw new UnsupportedPairError({ source: request.source, target: request.target });
    // Blank segments have nothing to translate. Apertium keeps the blank of a word it drops
    // ("I have" -> " He"), so a translation gets its segment's own surrounding whitespace.
    const work = request.segments.flatMap((segment, index) => (segment.trim() ? [index] : []));
    let texts = work.map((index) => request.segments[index].trim());
    for (const pool of route) {
      texts = (await pool.translate(texts.map(toStream))).map((output) => fromStream(output).trim());
    }
    const result = [...request.segments];
    work.forEach((index, i) => {
      const segment = result[index];
      result[index] = segment.slice(0, segment.length - segment.trimStart().length) + texts[i] + segment.slice(segment.trimEnd().length);
    });
    return result;
  }

  /** Process ids of the running pipelines per mode (one array of stage pids per pipeline). */
  pipelines(): Record<string, number[][]> {
    return Object.fromEntries([...this.pools].map(([mode, pool]) => [mode, pool.pids()]).filter(([, pids]) => pids.length));
  }

  async close(): Promise<void> {
    await Promise.all([...this.pools.values()].map((pool) => pool.close()));
  }

  /** The last shutdown step, so that queue workers draining before it still have their engine. */
  async onApplicationShutdown(): Promise<void> {
    await this.close();
  }
}

function splitKey(key: string): LanguagePair {
  const [source, target] = key.split('-');
  return { source, target };
}
