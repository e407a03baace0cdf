import { ApiPropertyOptional } from '@nestjs/swagger';
import { EU_LANGUAGES } from '@platform/contracts';
import { IsIn, IsOptional, IsString } from 'class-validator';

/** Query of a CSV upload, which has no other place for the glossary's name and language. */
export class GlossaryUploadQueryDto {
  @ApiPropertyOptional({ description: 'Name of the glossary; required with text/csv, not allowed with JSON', example: 'Product terms' })
  @IsOptional()
  @IsString()
  name?: string;

  @ApiPropertyOptional({ enum: EU_LANGUAGES, description: 'Language of the terms; required with text/csv, not allowed with JSON', example: 'en' })
  @IsOptional()
  @IsString()
  source?: string;
}

export const GLOSSARY_FORMATS = ['json', 'csv'] as const;

export class GlossaryFormatQueryDto {
  @ApiPropertyOptional({ enum: GLOSSARY_FORMATS, default: 'json', description: '`csv`: the entries as text/csv with the header term,<targets>' })
  @IsOptional()
  @IsIn(GLOSSARY_FORMATS)
  format?: (typeof GLOSSARY_FORMATS)[number];
}
