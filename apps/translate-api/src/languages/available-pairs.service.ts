import { Injectable, Logger } from '@nestjs/common';
import { isEuLanguage } from '@platform/contracts';
import { ApiError } from '@platform/errors';
import { EngineError, EngineRouter, type LanguagePair } from '@platform/translation-engines';

/** Each source language of `pairs` with the targets it reaches, both sorted by code. */
export function targetsBySource(pairs: readonly LanguagePair[]): Map<string, string[]> {
  const targets = new Map<string, Set<string>>();
  for (const { source, target } of pairs) targets.set(source, (targets.get(source) ?? new Set()).add(target));
  return new Map([...targets.keys()].sort().map((source) => [source, [...targets.get(source)!].sort()]));
}

/** The pairs between two different EU languages the engines can do now, for every API that lists languages. */
@Injectable()
export class AvailablePairs {
  private readonly logger = new Logger(AvailablePairs.name);

  constructor(private readonly engines: EngineRouter) {}

  async list(): Promise<LanguagePair[]> {
    const pairs = await this.asked(() => this.engines.pairs());
    return pairs.filter(({ source, target }) => source !== target && isEuLanguage(source) && isEuLanguage(target));
  }

  /** Targets for which a request's formality is applied by the engine that offers them, not only reported as ignored. */
  formalityTargets(): Promise<Set<string>> {
    return this.asked(() => this.engines.formalityTargets());
  }

  private async asked<T>(question: () => Promise<T>): Promise<T> {
    try {
      return await question();
    } catch (error) {
      if (!(error instanceof EngineError)) throw error;
      // The engine's own message may name internal hosts: it goes to the log, not to the client.
      this.logger.warn(`No engine could list its language pairs: ${error.message}`);
      throw ApiError.unavailable('The translation engine is unavailable; try again shortly');
    }
  }
}
