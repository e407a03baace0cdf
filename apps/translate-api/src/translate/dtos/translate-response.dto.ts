import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { FormalityReportDto } from '@platform/style-profiles';
import { TRANSLATION_ORIGINS, TRANSLATION_TIERS, type TranslationOrigin } from '@platform/translation-pipeline';

export class TranslateResponseDto {
  @ApiProperty({ enum: [true] })
  ok: true;

  @ApiProperty({ example: 'es' })
  target: string;

  @ApiProperty({ enum: TRANSLATION_TIERS })
  tier: string;

  @ApiProperty({ type: [String], description: 'In the order of the input texts' })
  translations: string[];

  @ApiProperty({ description: 'Words of the source texts (Unicode word segmentation; markup, keys and variables are free); with missing "keep", of what was translated' })
  words: number;

  @ApiProperty({ description: 'ceil(words × price per 1,000 words of the tier / 1,000)' })
  cost_cents: number;

  @ApiProperty({ description: 'The given source language, or the detected language of most words', example: 'en' })
  detected_source: string;

  @ApiProperty({
    type: [String],
    example: ['en'],
    description: "Each text's source language, in the order of the input texts. A text already in the target language is returned unchanged and not charged",
  })
  detected_sources: readonly string[];

  @ApiProperty({
    enum: TRANSLATION_ORIGINS,
    isArray: true,
    example: ['memory'],
    description:
      'Per text, in the order of the input texts: where most of its translated words come from: `memory` (your memories), `catalog`, `engine`; ' +
      '`none` when nothing of it was translated (kept as sent, or already in the target language). A text of several sentences (lines, HTML, JSON values) may mix them',
  })
  origins: readonly TranslationOrigin[];

  @ApiPropertyOptional({ format: 'uuid', description: 'The style profile applied: the one named, or the default profile of the mode; absent when none' })
  style_profile?: string;

  @ApiPropertyOptional({ type: FormalityReportDto, description: 'When the style profile asks for formality more or less: which engines applied it and which ignored it' })
  formality?: FormalityReportDto;

  @ApiPropertyOptional({
    type: 'integer',
    isArray: true,
    example: [1],
    description: 'With missing "keep": the indexes of the texts that came back not fully translated (no memory held a sentence and no engine does the pair)',
  })
  untranslated?: number[];

  @ApiPropertyOptional({
    type: [String],
    example: ['/0/menu/close'],
    description: "With missing \"keep\" in format json: the JSON Pointers of the string values that came back as sent, each starting with its text's index",
  })
  untranslated_paths?: string[];
}
