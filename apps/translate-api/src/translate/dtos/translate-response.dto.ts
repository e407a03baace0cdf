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

  @ApiProperty({ description: 'The detected source language, or the given one', example: 'en' })
  detected_source: string;
}
