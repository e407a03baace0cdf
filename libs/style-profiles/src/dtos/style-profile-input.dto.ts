import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { FORMALITIES, TYPOGRAPHY_RULES, type Formality } from '@platform/translation-pipeline';
import { IsArray, IsBoolean, IsIn, IsNotEmpty, IsObject, IsOptional, IsString, IsUUID, MaxLength } from 'class-validator';
import { MAX_DO_NOT_TRANSLATE_TERM_LENGTH, MAX_DO_NOT_TRANSLATE_TERMS, MAX_STYLE_NOTES_LENGTH, MAX_STYLE_PROFILE_NAME_LENGTH } from '../style-profile-limits';

export class DoNotTranslateTermDto {
  @ApiProperty({ minLength: 1, maxLength: MAX_DO_NOT_TRANSLATE_TERM_LENGTH, example: 'Apple Pay' })
  term: string;

  @ApiPropertyOptional({ default: true, description: 'false: any case of its letters matches (`windows` for `Windows`); the text keeps its own spelling' })
  case_sensitive?: boolean;
}

/** A whole profile, for creation and replacement alike: a field left out takes its default. */
export class StyleProfileInputDto {
  @ApiProperty({ minLength: 1, maxLength: MAX_STYLE_PROFILE_NAME_LENGTH, example: 'Marketing, France' })
  @IsString()
  @IsNotEmpty({ message: 'name must not be empty' })
  @MaxLength(MAX_STYLE_PROFILE_NAME_LENGTH)
  name: string;

  @ApiPropertyOptional({
    type: 'array',
    items: { oneOf: [{ type: 'string' }, { $ref: '#/components/schemas/DoNotTranslateTermDto' }] },
    maxItems: MAX_DO_NOT_TRANSLATE_TERMS,
    default: [],
    description:
      'Terms kept byte for byte wherever they occur as whole words (in text, HTML text and attributes, JSON values): never translated, never counted. ' +
      'A string is a case-sensitive term; `{term, case_sensitive}` says which. Over ' +
      `${MAX_DO_NOT_TRANSLATE_TERMS.toLocaleString('en')} terms: 413`,
    example: ['Apple Pay', { term: 'Notion', case_sensitive: false }],
  })
  @IsOptional()
  @IsArray({ message: 'do_not_translate must be a list of terms' })
  do_not_translate?: unknown[];

  @ApiPropertyOptional({
    type: 'object',
    properties: Object.fromEntries(TYPOGRAPHY_RULES.map((rule) => [rule, { type: 'boolean' }])),
    additionalProperties: false,
    description: 'Rule -> on (true) or off (false); a rule left out is on. Each applies only to target languages with that convention (see the API documentation)',
    example: { quotes: true, french_spacing: true, inverted_marks: false, apostrophe: true },
  })
  @IsOptional()
  @IsObject({ message: 'typography must be an object of rule names to true or false' })
  typography?: Record<string, unknown>;

  @ApiPropertyOptional({ enum: FORMALITIES, default: 'default', description: 'Passed to engines that can be told (DeepL); the response says which engines ignored it' })
  @IsOptional()
  @IsIn(FORMALITIES, { message: `formality must be one of ${FORMALITIES.join(', ')}` })
  formality?: Formality;

  @ApiPropertyOptional({ type: 'string', format: 'uuid', nullable: true, description: 'Glossary of the same mode used when a request names none (where it translates into the target)' })
  @IsOptional()
  @IsUUID('all', { message: 'glossary must be the id of one of your glossaries' })
  glossary?: string | null;

  @ApiPropertyOptional({ type: 'string', format: 'uuid', nullable: true, description: 'Memory of the same mode used when a request names no memories' })
  @IsOptional()
  @IsUUID('all', { message: 'memory must be the id of one of your memories' })
  memory?: string | null;

  @ApiPropertyOptional({ maxLength: MAX_STYLE_NOTES_LENGTH, default: '', description: 'Free text for reviewers, shown beside each review task of a job translated with the profile' })
  @IsOptional()
  @IsString()
  @MaxLength(MAX_STYLE_NOTES_LENGTH, { message: `notes must be at most ${MAX_STYLE_NOTES_LENGTH} characters` })
  notes?: string;

  @ApiPropertyOptional({ default: false, description: 'true: requests of this mode that name no profile use this one (the mode\'s previous default stops being one)' })
  @IsOptional()
  @IsBoolean({ message: 'default must be true or false' })
  default?: boolean;
}
