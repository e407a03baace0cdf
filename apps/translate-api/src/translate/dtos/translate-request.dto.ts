import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { MAX_MEMORIES_PER_ACCOUNT } from '@platform/translation-memory';
import { MISSING_HANDLINGS, TRANSLATION_FORMATS, TRANSLATION_TIERS, type MissingHandling, type TranslationFormat, type TranslationTier } from '@platform/translation-pipeline';
import { NO_STYLE_PROFILE } from '@platform/style-profiles';
import { ArrayMaxSize, ArrayNotEmpty, ArrayUnique, IsArray, IsBoolean, IsIn, IsOptional, IsString, IsUUID, Matches, MinLength, ValidateIf } from 'class-validator';

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

  @ApiPropertyOptional({
    default: true,
    description:
      "Translation memory first: each sentence from your memories (exact match), else, for a whole short text or JSON value, from the catalog, else the engine. " +
      'false: the engine alone',
  })
  @IsOptional()
  @IsBoolean({ message: 'memory must be true or false' })
  memory?: boolean;

  @ApiPropertyOptional({
    type: [String],
    format: 'uuid',
    maxItems: MAX_MEMORIES_PER_ACCOUNT,
    description: "Only these of your memories (of the key's mode), the first listed winning where several hold a sentence; all of them when absent. An id that is not yours: 404",
  })
  @IsOptional()
  @IsArray({ message: 'memories must be a list of memory ids' })
  @ArrayMaxSize(MAX_MEMORIES_PER_ACCOUNT, { message: `memories names at most ${MAX_MEMORIES_PER_ACCOUNT} memories` })
  @ArrayUnique({ message: 'memories must not name a memory twice' })
  @IsUUID('all', { each: true, message: 'memories must hold ids of your memories' })
  memories?: string[];

  @ApiPropertyOptional({
    enum: MISSING_HANDLINGS,
    description:
      '`keep`: a language pair without an engine (any of the 24 EU languages) is translated as far as memories go; the rest comes back as sent, ' +
      'listed in `untranslated`, and only the translated words are charged. Without it such a pair is 422. Not in tier review',
  })
  @IsOptional()
  @IsIn(MISSING_HANDLINGS, { message: 'missing must be "keep" when given' })
  missing?: MissingHandling;

  @ApiPropertyOptional({
    description:
      "Id of one of your style profiles (of the key's mode): its do-not-translate terms, typography and formality apply, and its glossary and memory " +
      `where the request names none. Without it the mode's default profile applies, if there is one; \`${NO_STYLE_PROFILE}\` for no profile at all. An id that is not yours: 404`,
    example: '5b0c2a4e-0a8e-4a59-9a0e-2f4f1c6d7e21',
  })
  @IsOptional()
  @ValidateIf((request: TranslateRequestDto) => request.style_profile !== NO_STYLE_PROFILE)
  @IsUUID('all', { message: `style_profile must be the id of one of your style profiles, or "${NO_STYLE_PROFILE}"` })
  style_profile?: string;
}
