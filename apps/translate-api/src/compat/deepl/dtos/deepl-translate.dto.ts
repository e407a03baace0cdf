import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { NO_STYLE_PROFILE } from '@platform/style-profiles';
import { ArrayNotEmpty, IsArray, IsBoolean, IsIn, IsOptional, IsString, IsUUID, MinLength, ValidateIf } from 'class-validator';
import { MISSING_HANDLINGS, type MissingHandling } from '@platform/translation-pipeline';
import { AsCommaList, AsFlag, AsList, Ignored } from '../../compat-fields';

/** DeepL's POST /v2/translate, as JSON or as a form with `text` repeated. */
export class DeepLTranslateDto {
  @ApiProperty({ type: [String], description: 'Texts to translate: 1 to 50, at most 30,000 characters together (as /api/v1/translate)' })
  @AsList()
  @IsArray({ message: "Parameter 'text' not specified." })
  @ArrayNotEmpty({ message: "Parameter 'text' not specified." })
  @IsString({ each: true })
  @MinLength(1, { each: true, message: "Parameter 'text' must not contain empty texts" })
  text: string[];

  @ApiProperty({ example: 'DE', description: 'Upper or lower case; EN, EN-GB and EN-US all mean English, PT, PT-PT and PT-BR Portuguese' })
  @IsString({ message: "Value for 'target_lang' not supported." })
  target_lang: string;

  @ApiPropertyOptional({ example: 'EN', description: 'Detected per text when absent' })
  @IsOptional()
  @IsString()
  source_lang?: string;

  @ApiPropertyOptional({ enum: ['html', 'xml'], description: 'Both translate the text between tags and keep the markup (our html format)' })
  @IsOptional()
  @IsIn(['html', 'xml'], { message: "Value for 'tag_handling' not supported." })
  tag_handling?: 'html' | 'xml';

  @ApiPropertyOptional({ format: 'uuid', description: 'One of your glossaries (see /v2/glossaries); its terms are enforced (billed as tier pro)' })
  @IsOptional()
  @IsString()
  glossary_id?: string;

  @ApiPropertyOptional({ description: 'Accepted; our engines translate each sentence on its own, without context. Not billed' })
  @IsOptional()
  @IsString()
  context?: string;

  @ApiPropertyOptional({ description: 'Accepted; billed_characters is always in the answer' })
  @IsOptional()
  @AsFlag()
  @IsBoolean({ message: "Value for 'show_billed_characters' not supported." })
  show_billed_characters?: boolean;

  @ApiPropertyOptional({ description: 'Accepted; formatting is always kept' })
  @IsOptional()
  @AsFlag()
  @IsBoolean({ message: "Value for 'preserve_formatting' not supported." })
  preserve_formatting?: boolean;

  @ApiPropertyOptional({ enum: ['0', '1', 'nonewlines'], description: 'Accepted; sentences are always split' })
  @IsOptional()
  @IsIn(['0', '1', 'nonewlines'], { message: "Value for 'split_sentences' not supported." })
  split_sentences?: string;

  @ApiPropertyOptional({
    enum: ['default', 'more', 'less', 'prefer_more', 'prefer_less'],
    description:
      'Passed to engines that can be told (DeepL), over the style profile\'s formality; prefer_ forms are more and less. An engine that cannot apply it ' +
      'translates without it, and the answer says so in `formality` (ours, not DeepL\'s) rather than failing',
  })
  @IsOptional()
  @IsIn(['default', 'more', 'less', 'prefer_more', 'prefer_less'], { message: "Value for 'formality' not supported." })
  formality?: string;

  @ApiPropertyOptional({ description: 'Accepted and ignored: the engine is chosen per language pair (TRANSLATION_ROUTES)' })
  @IsOptional()
  @IsString()
  model_type?: string;

  @ApiPropertyOptional({ description: 'Ours, not DeepL\'s: false translates with the engine alone, without your translation memories and the catalog (as `memory` of /api/v1/translate)' })
  @IsOptional()
  @AsFlag()
  @IsBoolean({ message: "Value for 'memory' not supported." })
  memory?: boolean;

  @ApiPropertyOptional({
    enum: MISSING_HANDLINGS,
    description: 'Ours, not DeepL\'s: `keep` translates a pair without an engine as far as your memories go and returns the rest as sent, billed 0 (as `missing` of /api/v1/translate)',
  })
  @IsOptional()
  @IsIn(MISSING_HANDLINGS, { message: "Value for 'missing' not supported." })
  missing?: MissingHandling;

  @ApiPropertyOptional({
    type: [String],
    description: 'With tag_handling: elements whose content is kept as sent, as if they said translate="no"; comma-separated or repeated. Without tag_handling: ignored',
    example: ['keep', 'x-brand'],
  })
  @IsOptional()
  @AsCommaList()
  @IsArray({ message: "Value for 'ignore_tags' not supported." })
  @IsString({ each: true, message: "Value for 'ignore_tags' not supported." })
  ignore_tags?: string[];

  @ApiPropertyOptional({ format: 'uuid', description: "Ours, not DeepL's: one of your style profiles, or `none` (as `style_profile` of /api/v1/translate)" })
  @IsOptional()
  @ValidateIf((body: DeepLTranslateDto) => body.style_profile !== NO_STYLE_PROFILE)
  @IsUUID('all', { message: "Value for 'style_profile' not supported." })
  style_profile?: string;

  @Ignored()
  non_splitting_tags?: unknown;

  @Ignored()
  splitting_tags?: unknown;

  @Ignored()
  outline_detection?: unknown;

  @Ignored()
  tag_handling_version?: unknown;
}
