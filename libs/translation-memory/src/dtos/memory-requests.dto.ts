import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { EU_LANGUAGES } from '@platform/contracts';
import { Type } from 'class-transformer';
import { IsIn, IsInt, IsNotEmpty, IsNumber, IsOptional, IsString, Matches, Max, MaxLength, Min } from 'class-validator';
import { MEMORY_FILE_FORMATS, type MemoryFileFormat } from '../formats/memory-file';
import { DEFAULT_ENTRY_PAGE, DEFAULT_MIN_SIMILARITY, DEFAULT_SUGGESTIONS, MAX_ENTRY_PAGE, MAX_MEMORY_NAME_LENGTH, MAX_SUGGESTIONS } from '../memory-limits';

const language = (what: string) => ({ message: `${what} must be one of the 24 official EU languages: ${EU_LANGUAGES.join(', ')}` });

export class CreateMemoryDto {
  @ApiProperty({ minLength: 1, maxLength: MAX_MEMORY_NAME_LENGTH, example: 'Product UI' })
  @IsString()
  @IsNotEmpty({ message: 'name must not be empty' })
  @MaxLength(MAX_MEMORY_NAME_LENGTH)
  name: string;

  @ApiPropertyOptional({ enum: EU_LANGUAGES, description: 'The one source language of its entries; any when absent', example: 'en' })
  @IsOptional()
  @IsIn(EU_LANGUAGES, language('source'))
  source?: string;
}

export class MemoryEntryInputDto {
  @ApiProperty({ enum: EU_LANGUAGES, example: 'en' })
  @IsIn(EU_LANGUAGES, language('source_lang'))
  source_lang: string;

  @ApiProperty({ enum: EU_LANGUAGES, example: 'de' })
  @IsIn(EU_LANGUAGES, language('target_lang'))
  target_lang: string;

  @ApiProperty({ description: 'The source as written: variables and markup become inline codes', example: 'Click <b>Save</b> to keep {count} files' })
  @IsString()
  source: string;

  @ApiProperty({ description: 'Its translation, with the same codes', example: 'Klicken Sie auf <b>Speichern</b>, um {count} Dateien zu behalten' })
  @IsString()
  target: string;
}

export class MemoryEntryEditDto {
  @ApiPropertyOptional({ description: 'A new source; the entry keeps its own when absent' })
  @IsOptional()
  @IsString()
  source?: string;

  @ApiPropertyOptional({ description: 'A new translation; the entry keeps its own when absent' })
  @IsOptional()
  @IsString()
  target?: string;
}

export class MemoryEntryPageQueryDto {
  @ApiPropertyOptional({ type: 'integer', minimum: 1, maximum: MAX_ENTRY_PAGE, default: DEFAULT_ENTRY_PAGE })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(MAX_ENTRY_PAGE)
  limit?: number;

  @ApiPropertyOptional({ description: 'The `next_cursor` of the previous page; omit for the first page' })
  @IsOptional()
  @Matches(/^\d{1,18}$/, { message: 'cursor must be the next_cursor of a previous page' })
  cursor?: string;

  @ApiPropertyOptional({ description: 'Only entries whose source or translation contains this text (case-insensitive)', maxLength: 200 })
  @IsOptional()
  @IsString()
  @MaxLength(200)
  q?: string;
}

export class MemoryImportQueryDto {
  @ApiPropertyOptional({
    enum: MEMORY_FILE_FORMATS,
    description: 'The file format; needed when the Content-Type does not say (application/xml, text/xml, application/octet-stream)',
  })
  @IsOptional()
  @IsIn(MEMORY_FILE_FORMATS)
  format?: MemoryFileFormat;

  @ApiPropertyOptional({ enum: EU_LANGUAGES, description: 'Source language, for files that do not say (PO, TMX with srclang="*all*") and memories without one' })
  @IsOptional()
  @IsIn(EU_LANGUAGES, language('source'))
  source?: string;

  @ApiPropertyOptional({ enum: EU_LANGUAGES, description: 'Target language of a PO file whose header names no Language' })
  @IsOptional()
  @IsIn(EU_LANGUAGES, language('target'))
  target?: string;
}

export class SuggestionsQueryDto {
  @ApiProperty({ enum: EU_LANGUAGES, example: 'en' })
  @IsIn(EU_LANGUAGES, language('source'))
  source: string;

  @ApiProperty({ enum: EU_LANGUAGES, example: 'de' })
  @IsIn(EU_LANGUAGES, language('target'))
  target: string;

  @ApiProperty({ description: 'The text to find translations for, as written', maxLength: 5000, example: 'Click Save to keep your files' })
  @IsString()
  @IsNotEmpty({ message: 'q must not be empty' })
  @MaxLength(5000)
  q: string;

  @ApiPropertyOptional({ type: 'integer', minimum: 1, maximum: MAX_SUGGESTIONS, default: DEFAULT_SUGGESTIONS })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(MAX_SUGGESTIONS)
  limit?: number;

  @ApiPropertyOptional({ minimum: 0.1, maximum: 1, default: DEFAULT_MIN_SIMILARITY, description: 'Least trigram similarity of a fuzzy suggestion' })
  @IsOptional()
  @Type(() => Number)
  @IsNumber()
  @Min(0.1)
  @Max(1)
  min_similarity?: number;
}
