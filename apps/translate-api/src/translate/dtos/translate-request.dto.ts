import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { TRANSLATION_FORMATS, TRANSLATION_TIERS, type TranslationFormat, type TranslationTier } from '@platform/translation-pipeline';
import { ArrayNotEmpty, IsArray, IsBoolean, IsIn, IsOptional, IsString, IsUUID, Matches, MinLength } from 'class-validator';

const ISO_639_1 = /^[a-z]{2}$/;

export class TranslateRequestDto {
  @ApiProperty({ description: 'Target language, ISO 639-1 (see GET /api/v1/languages)', example: 'es' })
  @IsString()
  @Matches(ISO_639_1, { message: 'target must be an ISO 639-1 code such as "de"' })
  target: string;

  @ApiProperty({
    type: [String],
    description: '1 to 50 texts, at most 30,000 characters in all (over: 413 payload_too_large)',
    example: ['The cat is sleeping on the red sofa.'],
  })
  @IsArray()
  @ArrayNotEmpty({ message: 'texts must hold at least one text' })
  @IsString({ each: true })
  @MinLength(1, { each: true, message: 'texts must not contain empty strings' })
  texts: string[];

  @ApiPropertyOptional({ description: 'Source language, ISO 639-1; detected when absent', example: 'en' })
  @IsOptional()
  @IsString()
  @Matches(ISO_639_1, { message: 'source must be an ISO 639-1 code such as "en"' })
  source?: string;

  @ApiPropertyOptional({ enum: TRANSLATION_FORMATS, default: 'text' })
  @IsOptional()
  @IsIn(TRANSLATION_FORMATS)
  format?: TranslationFormat;

  @ApiPropertyOptional({ enum: TRANSLATION_TIERS, default: 'basic' })
  @IsOptional()
  @IsIn(TRANSLATION_TIERS)
  tier?: TranslationTier;

  @ApiPropertyOptional({ format: 'uuid', description: 'Glossary id; binding in tiers pro and review, a hint in basic' })
  @IsOptional()
  @IsUUID('all', { message: 'glossary must be the id of one of your glossaries' })
  glossary?: string;

  @ApiPropertyOptional({
    default: true,
    description:
      'Format html: translate the text of the attributes alt, title, placeholder, aria-label, aria-description and the value of button inputs (their words are counted); false keeps every attribute as sent',
  })
  @IsOptional()
  @IsBoolean({ message: 'html_attributes must be true or false' })
  html_attributes?: boolean;
}
