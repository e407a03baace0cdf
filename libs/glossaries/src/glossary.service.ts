import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import type { AccountMode } from '@platform/contracts';
import { ApiError } from '@platform/errors';
import type { GlossaryTerms } from '@platform/translation-pipeline';
import { isUUID } from 'class-validator';
import { FindOptionsSelect, Repository } from 'typeorm';
import { checkGlossary, type GlossaryDraft } from './glossary-draft';
import { Glossary } from './glossary.entity';
import { MAX_GLOSSARIES_PER_ACCOUNT } from './glossary-limits';

/** Everything but the entries, for listings. */
const SUMMARY: FindOptionsSelect<Glossary> = {
  id: true,
  accountId: true,
  sandbox: true,
  name: true,
  source: true,
  targets: true,
  entryCount: true,
  createdAt: true,
  updatedAt: true,
};

/**
 * Glossaries of an account, each in one mode (sandbox or live): every method takes the caller's
 * mode and sees only that world, so the other mode's ids are unknown (404, or 422 when named in
 * a translation request). Nothing is cached: every read goes to Postgres, so a change applies
 * to the very next request on every replica.
 */
@Injectable()
export class GlossaryService {
  constructor(@InjectRepository(Glossary) private readonly glossaries: Repository<Glossary>) {}

  list(mode: AccountMode): Promise<Glossary[]> {
    return this.glossaries.find({ select: SUMMARY, where: modeOf(mode), order: { createdAt: 'ASC', id: 'ASC' } });
  }

  /** Throws 404 for unknown ids, ids of other accounts or of the other mode, and ids that are not UUIDs alike. */
  async get(mode: AccountMode, id: string): Promise<Glossary> {
    const glossary = await this.find(mode, id);
    if (!glossary) throw ApiError.notFound(`Glossary ${id} not found`);
    return glossary;
  }

  /** Each mode of an account holds up to MAX_GLOSSARIES_PER_ACCOUNT glossaries. */
  async create(mode: AccountMode, draft: GlossaryDraft): Promise<Glossary> {
    const content = checkGlossary(draft);
    return this.glossaries.manager.transaction(async (manager) => {
      // Serialises creations per account, so concurrent uploads cannot pass the limit together.
      // NO KEY UPDATE leaves the account free for inserts that merely reference it (keys, jobs).
      await manager.query('SELECT 1 FROM translation.accounts WHERE id = $1 FOR NO KEY UPDATE', [mode.accountId]);
      const count = await manager.countBy(Glossary, modeOf(mode));
      if (count >= MAX_GLOSSARIES_PER_ACCOUNT) {
        const world = mode.sandbox ? 'sandbox' : 'live';
        throw ApiError.invalidParameter(`An account holds at most ${MAX_GLOSSARIES_PER_ACCOUNT} ${world} glossaries; delete one before creating another`);
      }
      return manager.save(manager.create(Glossary, { ...modeOf(mode), ...content, entryCount: content.entries.length }));
    });
  }

  /** Replaces name, source and all entries at once; the id stays. */
  async replace(mode: AccountMode, id: string, draft: GlossaryDraft): Promise<Glossary> {
    await this.get(mode, id);
    const content = checkGlossary(draft);
    const { affected } = await this.glossaries.update({ ...modeOf(mode), id }, { ...content, entryCount: content.entries.length });
    // Deleted between the two statements: the same answer as if it had gone before.
    if (!affected) throw ApiError.notFound(`Glossary ${id} not found`);
    return this.get(mode, id);
  }

  async delete(mode: AccountMode, id: string): Promise<void> {
    const { affected } = isUUID(id) ? await this.glossaries.delete({ ...modeOf(mode), id }) : { affected: 0 };
    if (!affected) throw ApiError.notFound(`Glossary ${id} not found`);
  }

  /**
   * The entries of a glossary that translate into `target`, for translate and batches. A glossary
   * named in a translation request is a parameter, so an unknown or foreign one is 422 (the
   * contract's unsupported_language), not 404; so is one of the other mode, and one without
   * translations into `target`.
   */
  async termsFor(mode: AccountMode, glossaryId: string, target: string): Promise<GlossaryTerms> {
    const glossary = await this.find(mode, glossaryId);
    if (!glossary) throw ApiError.invalidParameter(`Unknown glossary "${glossaryId}"`);
    if (!glossary.targets.includes(target)) {
      throw ApiError.invalidParameter(
        `Glossary "${glossary.name}" (${glossary.id}) has no translations into "${target}"; it translates into ${glossary.targets.join(', ')}`,
      );
    }
    return {
      source: glossary.source,
      target,
      entries: glossary.entries.flatMap(({ term, translations }) => (translations[target] ? [{ term, translation: translations[target] }] : [])),
    };
  }

  /** Whether the mode holds the glossary and it translates into `target`: whether a default glossary applies to a request. */
  async translatesInto(mode: AccountMode, glossaryId: string, target: string): Promise<boolean> {
    return (await this.find(mode, glossaryId))?.targets.includes(target) ?? false;
  }

  private find(mode: AccountMode, id: string): Promise<Glossary | null> {
    return isUUID(id) ? this.glossaries.findOneBy({ ...modeOf(mode), id }) : Promise.resolve(null);
  }
}

/** Only the two fields: a principal passed as the mode carries more. */
function modeOf({ accountId, sandbox }: AccountMode): AccountMode {
  return { accountId, sandbox };
}
