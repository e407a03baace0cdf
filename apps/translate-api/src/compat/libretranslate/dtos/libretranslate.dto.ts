import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { FormalityReportDto } from '@platform/style-profiles';
import { MISSING_HANDLINGS, type MissingHandling } from '@platform/translation-pipeline';
import { NO_STYLE_PROFILE } from '@platform/style-profiles';
import { Allow, IsBoolean, IsDefined, IsIn, IsOptional, IsString, IsUUID, MinLength, ValidateIf } from 'class-validator';
import { AsFlag, Ignored } from '../../compat-fields';

/** Both spellings of the key in the body: `api_key` is LibreTranslate's, `apiKey` what some clients send. */
export const LIBRETRANSLATE_KEY_FIELDS = ['api_key', 'apiKey'];

class LibreTranslateKeyed {
  @ApiPropertyOptional({ description: 'The API key, when not sent as `Authorization: Bearer` (read by the auth guard)' })
  @Allow()
  api_key?: string;

  @ApiPropertyOptional({ description: 'Same as api_key' })
  @Allow()
  apiKey?: string;
}

export class LibreTranslateRequestDto extends LibreTranslateKeyed {
  @ApiProperty({ oneOf: [{ type: 'string' }, { type: 'array', items: { type: 'string' } }], description: 'A text, or up to 50 texts' })
  @IsDefined({ message: 'Invalid request: missing q parameter' })
  @IsString({ each: true, message: 'Invalid request: q must be a string or an array of strings' })
  @MinLength(1, { each: true, message: 'Invalid request: q must not contain empty texts' })
  q: string | string[];

  @ApiProperty({ example: 'auto', description: 'ISO 639-1, or `auto` to detect each text' })
  @IsString({ message: 'Invalid request: missing source parameter' })
  source: string;

  @ApiProperty({ example: 'es' })
  @IsString({ message: 'Invalid request: missing target parameter' })
  target: string;

  @ApiPropertyOptional({ enum: ['text', 'html'], default: 'text' })
  @IsOptional()
  @IsIn(['text', 'html'], { message: 'Invalid request: format must be text or html' })
  format?: 'text' | 'html';

  @ApiPropertyOptional({ description: "Ours, not LibreTranslate's: false translates with the engine alone, without your translation memories and the catalog" })
  @IsOptional()
  @AsFlag()
  @IsBoolean({ message: 'Invalid request: memory must be true or false' })
  memory?: boolean;

  @ApiPropertyOptional({ enum: MISSING_HANDLINGS, description: "Ours, not LibreTranslate's: `keep` translates a pair without an engine as far as your memories go and returns the rest as sent" })
  @IsOptional()
  @IsIn(MISSING_HANDLINGS, { message: 'Invalid request: missing must be keep' })
  missing?: MissingHandling;

  @ApiPropertyOptional({ format: 'uuid', description: "Ours, not LibreTranslate's: one of your style profiles, or `none` (as `style_profile` of /api/v1/translate)" })
  @IsOptional()
  @ValidateIf((body: LibreTranslateRequestDto) => body.style_profile !== NO_STYLE_PROFILE)
  @IsUUID('all', { message: 'Invalid request: style_profile must be the id of one of your style profiles' })
  style_profile?: string;

  @Ignored('Accepted and ignored: no alternatives are given')
  alternatives?: unknown;
}

export class LibreTranslateDetectDto extends LibreTranslateKeyed {
  @ApiProperty()
  @IsString({ message: 'Invalid request: missing q parameter' })
  @MinLength(1, { message: 'Invalid request: missing q parameter' })
  q: string;
}

export class DetectedLanguageDto {
  @ApiProperty({ description: '0 to 100' })
  confidence: number;

  @ApiProperty({ example: 'en' })
  language: string;
}

export class LibreTranslateResponseDto {
  @ApiProperty({ oneOf: [{ type: 'string' }, { type: 'array', items: { type: 'string' } }], description: 'A string for a string q, an array for an array' })
  translatedText: string | string[];

  @ApiPropertyOptional({ description: 'With source auto: one for a string q, an array for an array' })
  detectedLanguage?: DetectedLanguageDto | DetectedLanguageDto[];

  @ApiPropertyOptional({ format: 'uuid', description: "Ours, not LibreTranslate's: the style profile applied, as in /api/v1/translate" })
  style_profile?: string;

  @ApiPropertyOptional({ type: FormalityReportDto, description: "Ours, not LibreTranslate's: with the profile's formality, which engines applied it and which could not" })
  formality?: FormalityReportDto;
}

export class LibreTranslateLanguageDto {
  @ApiProperty({ example: 'en' })
  code: string;

  @ApiProperty({ example: 'English' })
  name: string;

  @ApiProperty({ type: [String], example: ['de', 'es'] })
  targets: string[];
}
