import { ApiProperty } from '@nestjs/swagger';
import { FORMALITIES, TYPOGRAPHY_RULES, type Formality, type TypographySettings } from '@platform/translation-pipeline';
import type { FormalityReport } from '../formality-report';
import type { StyleProfile } from '../style-profile.entity';

export class DoNotTranslateEntryDto {
  @ApiProperty({ example: 'Apple Pay' })
  term: string;

  @ApiProperty()
  case_sensitive: boolean;
}

export class StyleProfileDto {
  @ApiProperty({ format: 'uuid', description: 'Pass as `style_profile` in translate and batch requests' })
  id: string;

  @ApiProperty()
  name: string;

  @ApiProperty({ description: 'Whether requests of this mode that name no profile use it' })
  default: boolean;

  @ApiProperty({ type: [DoNotTranslateEntryDto] })
  do_not_translate: DoNotTranslateEntryDto[];

  @ApiProperty({ type: 'object', properties: Object.fromEntries(TYPOGRAPHY_RULES.map((rule) => [rule, { type: 'boolean' }])), description: 'Every rule, on or off' })
  typography: TypographySettings;

  @ApiProperty({ enum: FORMALITIES })
  formality: Formality;

  @ApiProperty({ type: 'string', format: 'uuid', nullable: true })
  glossary: string | null;

  @ApiProperty({ type: 'string', format: 'uuid', nullable: true })
  memory: string | null;

  @ApiProperty()
  notes: string;

  @ApiProperty({ format: 'date-time' })
  created_at: Date;

  @ApiProperty({ format: 'date-time' })
  updated_at: Date;

  static from(profile: StyleProfile): StyleProfileDto {
    return {
      id: profile.id,
      name: profile.name,
      default: profile.isDefault,
      do_not_translate: profile.doNotTranslate.map(({ term, caseSensitive }) => ({ term, case_sensitive: caseSensitive })),
      typography: profile.typography,
      formality: profile.formality,
      glossary: profile.glossaryId,
      memory: profile.memoryId,
      notes: profile.notes,
      created_at: profile.createdAt,
      updated_at: profile.updatedAt,
    };
  }
}

/** A profile's fields beside `ok`, so that the id of a new profile is `id`, as clients read it. */
export class StyleProfileResponseDto extends StyleProfileDto {
  @ApiProperty({ enum: [true] })
  ok: true;

  static of(profile: StyleProfile): StyleProfileResponseDto {
    return { ok: true, ...StyleProfileDto.from(profile) };
  }
}

export class StyleProfileListResponseDto {
  @ApiProperty({ enum: [true] })
  ok: true;

  @ApiProperty({ type: [StyleProfileDto], description: 'Oldest first' })
  style_profiles: StyleProfileDto[];

  static of(profiles: StyleProfile[]): StyleProfileListResponseDto {
    return { ok: true, style_profiles: profiles.map((profile) => StyleProfileDto.from(profile)) };
  }
}

export class StyleProfileDeletedResponseDto {
  @ApiProperty({ enum: [true] })
  ok: true;
}

/** What became of a style profile's formality. */
export class FormalityReportDto implements FormalityReport {
  @ApiProperty({ enum: FORMALITIES.filter((formality) => formality !== 'default'), example: 'less' })
  requested: Exclude<Formality, 'default'>;

  @ApiProperty({ description: 'true when every engine that translated something applied it; false when one could not, or no engine translated (memory answered all)' })
  applied: boolean;

  @ApiProperty({ type: [String], example: ['deepl'], description: 'Engines that translated with the formality asked for' })
  applied_by: string[];

  @ApiProperty({ type: [String], example: ['apertium'], description: 'Engines that translated without it, since they cannot be told (Apertium, LibreTranslate; DeepL for a target without formality)' })
  ignored_by: string[];
}
