import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { EU_LANGUAGES } from '@platform/contracts';
import { GlossaryEntryDto, GlossarySummaryDto, MAX_GLOSSARY_NAME_LENGTH } from '@platform/glossaries';
import { IsObject, IsOptional, IsString, MaxLength } from 'class-validator';
import { OffsetPageQueryDto } from '../../account-mode/mode-query.dto';

/** A CSV file as the browser read it: the public API's CSV upload, in a JSON body. */
export class GlossaryCsvUploadDto {
  @ApiProperty({ minLength: 1, maxLength: MAX_GLOSSARY_NAME_LENGTH, example: 'Product terms' })
  @IsString()
  name: string;

  @ApiProperty({ enum: EU_LANGUAGES, description: 'Language of the terms', example: 'en' })
  @IsString()
  source: string;

  @ApiProperty({
    description:
      'The file: RFC 4180 CSV, a header row `term,<language>,...` then one row per term; an empty cell means no translation into that ' +
      'language. Errors name the line of the file.',
    example: 'term,de,fr\r\ncloud,Wolke,nuage\r\n',
  })
  @IsString()
  csv: string;
}

export class GlossaryEntriesQueryDto extends OffsetPageQueryDto {
  @ApiPropertyOptional({ maxLength: 200, description: 'Only entries whose term or a translation contains this text, ignoring case' })
  @IsOptional()
  @IsString()
  @MaxLength(200)
  q?: string;
}

export class GlossaryPageResponseDto {
  @ApiProperty({ enum: [true] })
  ok: true;

  @ApiProperty({ type: [GlossarySummaryDto], description: 'Oldest first' })
  glossaries: GlossarySummaryDto[];

  @ApiProperty({ type: 'integer', description: 'Glossaries of the mode in all' })
  total: number;
}

/** The body of an entry edit: the entry as the glossary holds it. */
export class GlossaryEntryInputDto {
  @ApiProperty({ maxLength: 200, example: 'cloud' })
  @IsString()
  term: string;

  @ApiProperty({ type: 'object', additionalProperties: { type: 'string' }, example: { de: 'Wolke', fr: 'nuage' } })
  @IsObject()
  translations: Record<string, string>;
}

export class IndexedGlossaryEntryDto extends GlossaryEntryDto {
  @ApiProperty({ type: 'integer', minimum: 0, description: 'Position in the glossary; names the entry to edit' })
  index: number;
}

export class GlossaryEntriesResponseDto {
  @ApiProperty({ enum: [true] })
  ok: true;

  @ApiProperty()
  glossary: GlossarySummaryDto;

  @ApiProperty({ type: [IndexedGlossaryEntryDto], description: 'The page of matching entries, in glossary order' })
  entries: IndexedGlossaryEntryDto[];

  @ApiProperty({ type: 'integer', description: 'Matching entries in all' })
  total: number;
}

export class GlossaryEntryResponseDto {
  @ApiProperty({ enum: [true] })
  ok: true;

  @ApiProperty()
  glossary: GlossarySummaryDto;

  @ApiProperty()
  entry: IndexedGlossaryEntryDto;
}
