import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { EU_LANGUAGES } from '@platform/contracts';
import { readable } from '../inline-text';
import type { ImportSummary } from '../memory.service';
import { MEMORY_ORIGINS, type MemoryEntry, type MemoryOrigin, type MemoryProvenance } from '../memory-entry.entity';
import { DEFAULT_MEMORY_NAME, type Memory } from '../memory.entity';
import type { Suggestion } from '../translation-memory.service';

const PROVENANCE = {
  type: 'object',
  additionalProperties: { type: 'string', nullable: true },
  description:
    'Where the entry came from: `{job, reviewer}` for reviewers\' verdicts, `{format, tool}` for imports, `{key}` for entries written through the API, ' +
    '`{user}` for entries changed in the console',
  example: { job: 'job_4fQ2m9XcVb7Lk1PzRt8sYw3e', reviewer: '0b6f3b8e-2a41-4c2e-9a57-7d1f0f6d2c11' },
} as const;

export class MemoryDto {
  @ApiProperty({ format: 'uuid' })
  id: string;

  @ApiProperty({ example: 'Product UI' })
  name: string;

  @ApiProperty({ enum: EU_LANGUAGES, nullable: true, description: 'The one source language of its entries; null for any' })
  source: string | null;

  @ApiProperty({ description: `Whether it is the memory reviewers' verdicts go to (named "${DEFAULT_MEMORY_NAME}")` })
  default: boolean;

  @ApiProperty({ type: 'integer' })
  entry_count: number;

  @ApiProperty({ format: 'date-time' })
  created_at: Date;

  @ApiProperty({ format: 'date-time', description: 'Last change of the memory or its entries' })
  updated_at: Date;

  static from(memory: Memory): MemoryDto {
    return {
      id: memory.id,
      name: memory.name,
      source: memory.source,
      default: memory.name === DEFAULT_MEMORY_NAME,
      entry_count: memory.entryCount,
      created_at: memory.createdAt,
      updated_at: memory.updatedAt,
    };
  }
}

export class MemoryEntryDto {
  @ApiProperty({ description: 'Entry id (digits)', example: '4711' })
  id: string;

  @ApiProperty({ enum: EU_LANGUAGES })
  source_lang: string;

  @ApiProperty({ enum: EU_LANGUAGES })
  target_lang: string;

  @ApiProperty({ description: 'The source as written, inline codes as in the original', example: 'Click <b>Save</b> to keep {count} files' })
  source: string;

  @ApiProperty({ description: 'The translation as written', example: 'Klicken Sie auf <b>Speichern</b>, um {count} Dateien zu behalten' })
  target: string;

  @ApiProperty({ description: 'The source as matched: inline codes as placeholders `<x id="N"/>` and `<g id="N">…</g>`, ids in order of appearance', example: 'Click <g id="1">Save</g> to keep <x id="2"/> files' })
  source_masked: string;

  @ApiProperty({ description: "The translation masked, its ids those of the source's codes", example: 'Klicken Sie auf <g id="1">Speichern</g>, um <x id="2"/> Dateien zu behalten' })
  target_masked: string;

  @ApiProperty({ enum: MEMORY_ORIGINS })
  origin: MemoryOrigin;

  @ApiProperty(PROVENANCE)
  provenance: MemoryProvenance;

  @ApiProperty({ type: 'integer', description: 'Times a translation used it' })
  usage_count: number;

  @ApiProperty({ format: 'date-time', nullable: true })
  last_used_at: Date | null;

  @ApiProperty({ format: 'date-time' })
  created_at: Date;

  @ApiProperty({ format: 'date-time' })
  updated_at: Date;

  static from(entry: MemoryEntry): MemoryEntryDto {
    return {
      id: entry.id,
      source_lang: entry.sourceLang,
      target_lang: entry.targetLang,
      source: readable({ text: entry.sourceText, codes: entry.sourceCodes }),
      target: readable({ text: entry.targetText, codes: entry.targetCodes }),
      source_masked: entry.sourceText,
      target_masked: entry.targetText,
      origin: entry.origin,
      provenance: entry.provenance,
      usage_count: entry.usageCount,
      last_used_at: entry.lastUsedAt,
      created_at: entry.createdAt,
      updated_at: entry.updatedAt,
    };
  }
}

export class MemoryResponseDto {
  @ApiProperty({ enum: [true] })
  ok: true;

  @ApiProperty()
  memory: MemoryDto;
}

export class MemoryListResponseDto {
  @ApiProperty({ enum: [true] })
  ok: true;

  @ApiProperty({ type: [MemoryDto], description: 'Oldest first; the default memory is always among them' })
  memories: MemoryDto[];
}

export class MemoryDeletedResponseDto {
  @ApiProperty({ enum: [true] })
  ok: true;
}

export class MemoryEntryResponseDto {
  @ApiProperty({ enum: [true] })
  ok: true;

  @ApiProperty()
  entry: MemoryEntryDto;
}

export class MemoryEntryPageDto {
  @ApiProperty({ enum: [true] })
  ok: true;

  @ApiProperty({ type: [MemoryEntryDto], description: 'In the order they were first added' })
  entries: MemoryEntryDto[];

  @ApiProperty({ type: String, nullable: true, description: 'Pass as `cursor` for the next page; null on the last page' })
  next_cursor: string | null;
}

export class MemoryImportSkippedDto {
  @ApiPropertyOptional({ type: 'integer', description: 'Translations into, or units from, a language that is not one of the 24 official EU languages' })
  language?: number;

  @ApiPropertyOptional({ type: 'integer', description: 'TMX units without a variant in the source language' })
  no_source?: number;

  @ApiPropertyOptional({ type: 'integer', description: 'Empty or missing translations' })
  untranslated?: number;

  @ApiPropertyOptional({ type: 'integer', description: 'PO entries marked fuzzy' })
  fuzzy?: number;

  @ApiPropertyOptional({ type: 'integer', description: 'PO entries with plural forms' })
  plural?: number;
}

export class MemoryImportResponseDto {
  @ApiProperty({ enum: [true] })
  ok: true;

  @ApiProperty({ description: 'The memory after the import' })
  memory: MemoryDto;

  @ApiProperty({ type: 'integer', description: 'Entries the memory did not hold before' })
  added: number;

  @ApiProperty({ type: 'integer', description: 'Entries whose source the memory held: the file\'s translation replaced the old one' })
  replaced: number;

  @ApiProperty({ description: 'Units of the file left out on purpose, by reason; the rest was imported' })
  skipped: MemoryImportSkippedDto;

  static from(memory: Memory, summary: ImportSummary): MemoryImportResponseDto {
    return { ok: true, memory: MemoryDto.from(memory), added: summary.added, replaced: summary.replaced, skipped: summary.skipped };
  }
}

export class SuggestionMemoryDto {
  @ApiProperty({ format: 'uuid' })
  id: string;

  @ApiProperty()
  name: string;
}

export class SuggestionDto {
  @ApiProperty({ example: '4711' })
  entry_id: string;

  @ApiProperty()
  memory: SuggestionMemoryDto;

  @ApiProperty({ description: 'The stored source as written' })
  source: string;

  @ApiProperty({ description: 'Its translation as written' })
  target: string;

  @ApiProperty()
  source_masked: string;

  @ApiProperty()
  target_masked: string;

  @ApiProperty({ enum: ['exact', 'fuzzy'], description: '`exact`: the same source once normalised (case, whitespace, codes); `fuzzy`: similar' })
  match: 'exact' | 'fuzzy';

  @ApiProperty({ minimum: 0, maximum: 1, description: 'Trigram similarity of the two sources (pg_trgm), 1 for exact matches', example: 0.82 })
  similarity: number;

  @ApiProperty({ enum: MEMORY_ORIGINS })
  origin: MemoryOrigin;

  @ApiProperty(PROVENANCE)
  provenance: MemoryProvenance;

  @ApiProperty({ type: 'integer' })
  usage_count: number;

  @ApiProperty({ format: 'date-time' })
  updated_at: Date;

  static from(suggestion: Suggestion): SuggestionDto {
    return {
      entry_id: suggestion.entryId,
      memory: suggestion.memory,
      source: suggestion.source,
      target: suggestion.target,
      source_masked: suggestion.sourceMasked,
      target_masked: suggestion.targetMasked,
      match: suggestion.match,
      similarity: suggestion.similarity,
      origin: suggestion.origin,
      provenance: suggestion.provenance,
      usage_count: suggestion.usageCount,
      updated_at: suggestion.updatedAt,
    };
  }
}

export class SuggestionsResponseDto {
  @ApiProperty({ enum: [true] })
  ok: true;

  @ApiProperty({ type: [SuggestionDto], description: 'Exact matches first, then fuzzy ones by similarity, then the latest' })
  suggestions: SuggestionDto[];
}
