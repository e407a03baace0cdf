import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import type { AccountMode } from '@platform/contracts';
import { ApiError } from '@platform/errors';
import { GlossaryService } from '@platform/glossaries';
import { MemoryService } from '@platform/translation-memory';
import { isUUID } from 'class-validator';
import { Repository, type EntityManager } from 'typeorm';
import { NO_STYLE_PROFILE, type AppliedStyleProfile, type StyleRequest } from './applied-style-profile';
import type { StyleProfileInputDto } from './dtos/style-profile-input.dto';
import { checkStyleProfile, type StyleProfileContent } from './style-profile-draft';
import { MAX_STYLE_PROFILES_PER_ACCOUNT } from './style-profile-limits';
import { StyleProfile } from './style-profile.entity';

const notFound = (id: string) => ApiError.notFound(`Style profile ${id} not found`);

/**
 * Style profiles of an account, each in one mode (sandbox or live): every method takes the
 * caller's mode and sees only that world, so the other mode's ids are unknown (404). Nothing is
 * cached: a change applies to the very next request on every replica.
 */
@Injectable()
export class StyleProfileService {
  constructor(
    @InjectRepository(StyleProfile) private readonly profiles: Repository<StyleProfile>,
    private readonly glossaries: GlossaryService,
    private readonly memories: MemoryService,
  ) {}

  list(mode: AccountMode): Promise<StyleProfile[]> {
    return this.profiles.find({ where: modeOf(mode), order: { createdAt: 'ASC', id: 'ASC' } });
  }

  /** Throws 404 for unknown ids, ids of other accounts or of the other mode, and ids that are not UUIDs alike. */
  async get(mode: AccountMode, id: string): Promise<StyleProfile> {
    const profile = isUUID(id) ? await this.profiles.findOneBy({ ...modeOf(mode), id }) : null;
    if (!profile) throw notFound(id);
    return profile;
  }

  /** Each mode of an account holds up to MAX_STYLE_PROFILES_PER_ACCOUNT profiles. */
  async create(mode: AccountMode, input: StyleProfileInputDto): Promise<StyleProfile> {
    const content = await this.checked(mode, input);
    return this.write(mode, content, async (manager) => {
      if ((await manager.countBy(StyleProfile, modeOf(mode))) >= MAX_STYLE_PROFILES_PER_ACCOUNT) {
        const world = mode.sandbox ? 'sandbox' : 'live';
        throw ApiError.invalidParameter(`An account holds at most ${MAX_STYLE_PROFILES_PER_ACCOUNT} ${world} style profiles; delete one before creating another`);
      }
      return (await manager.insert(StyleProfile, { ...modeOf(mode), ...content })).identifiers[0].id as string;
    });
  }

  /** Replaces every field at once (a field left out takes its default); the id stays. */
  async replace(mode: AccountMode, id: string, input: StyleProfileInputDto): Promise<StyleProfile> {
    await this.get(mode, id);
    const content = await this.checked(mode, input);
    return this.write(mode, content, async (manager) => {
      const { affected } = await manager.update(StyleProfile, { ...modeOf(mode), id }, content);
      // Deleted meanwhile: the same answer as if it had gone before.
      if (!affected) throw notFound(id);
      return id;
    });
  }

  async delete(mode: AccountMode, id: string): Promise<void> {
    const { affected } = isUUID(id) ? await this.profiles.delete({ ...modeOf(mode), id }) : { affected: 0 };
    if (!affected) throw notFound(id);
  }

  /**
   * The profile a translation request uses: the one it names (404 when it is not one of the
   * mode's), none for `none`, else the mode's default if there is one. With it, the request's
   * defaults: the profile's glossary where the request names none and the glossary translates
   * into the target, its memory where the request names no memories.
   */
  async apply<R extends StyleRequest>(mode: AccountMode, request: R): Promise<{ request: R; style?: AppliedStyleProfile }> {
    const named = request.style_profile;
    if (named === NO_STYLE_PROFILE) return { request };
    const profile = named === undefined ? await this.profiles.findOneBy({ ...modeOf(mode), isDefault: true }) : await this.get(mode, named);
    if (!profile) return { request };
    const glossary = request.glossary ?? (await this.defaultGlossary(mode, profile, request.target));
    const memories = request.memories ?? (profile.memoryId ? [profile.memoryId] : undefined);
    return { request: { ...request, glossary, memories }, style: applied(profile) };
  }

  /** The profile's glossary where it translates into `target`; a request into another language goes without it. */
  private async defaultGlossary(mode: AccountMode, profile: StyleProfile, target: string): Promise<string | undefined> {
    if (!profile.glossaryId) return undefined;
    return (await this.glossaries.translatesInto(mode, profile.glossaryId, target)) ? profile.glossaryId : undefined;
  }

  /** The DTO's content under the profile rules, its glossary and memory checked to be the mode's own (422 otherwise). */
  private async checked(mode: AccountMode, input: StyleProfileInputDto): Promise<StyleProfileContent> {
    const content = checkStyleProfile(input);
    if (content.glossaryId) {
      await this.glossaries.get(mode, content.glossaryId).catch(() => {
        throw ApiError.invalidParameter(`glossary ${content.glossaryId} is not one of your glossaries in this mode`);
      });
    }
    if (content.memoryId) {
      await this.memories.get(mode, content.memoryId).catch(() => {
        throw ApiError.invalidParameter(`memory ${content.memoryId} is not one of your memories in this mode`);
      });
    }
    return content;
  }

  /**
   * Runs a creation or replacement with the account locked, which serialises them per account
   * so that neither the limit nor the one default can be passed by concurrent requests; a new
   * default takes over from the old one in the same transaction.
   */
  private async write(mode: AccountMode, content: StyleProfileContent, change: (manager: EntityManager) => Promise<string>): Promise<StyleProfile> {
    const id = await this.profiles.manager.transaction(async (manager) => {
      // NO KEY UPDATE leaves the account free for inserts that merely reference it (keys, jobs).
      await manager.query('SELECT 1 FROM translation.accounts WHERE id = $1 FOR NO KEY UPDATE', [mode.accountId]);
      if (content.isDefault) await manager.update(StyleProfile, { ...modeOf(mode), isDefault: true }, { isDefault: false });
      return change(manager);
    });
    return this.get(mode, id);
  }
}

function applied(profile: StyleProfile): AppliedStyleProfile {
  return {
    id: profile.id,
    name: profile.name,
    doNotTranslate: profile.doNotTranslate,
    typography: profile.typography,
    formality: profile.formality,
    glossary: profile.glossaryId,
    memory: profile.memoryId,
    notes: profile.notes,
  };
}

/** Only the two fields: a principal passed as the mode carries more. */
function modeOf({ accountId, sandbox }: AccountMode): AccountMode {
  return { accountId, sandbox };
}
