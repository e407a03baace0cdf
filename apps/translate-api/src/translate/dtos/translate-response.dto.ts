import { ApiProperty } from '@nestjs/swagger';
import { TRANSLATION_TIERS } from '@platform/translation-pipeline';

export class TranslateResponseDto {
  @ApiProperty({ enum: [true] })
  ok: true;

  @ApiProperty({ example: 'es' })
  target: string;

  @ApiProperty({ enum: TRANSLATION_TIERS })
  tier: string;

  @ApiProperty({ type: [String], description: 'In the order of the input texts' })
  translations: string[];

  @ApiProperty({ description: 'Words of the source texts (Unicode word segmentation; markup, keys and variables are free)' })
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
}
