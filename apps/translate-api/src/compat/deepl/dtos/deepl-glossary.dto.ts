import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional, IsString, MinLength } from 'class-validator';

export class CreateDeepLGlossaryDto {
  @ApiProperty()
  @IsString({ message: "Parameter 'name' not specified." })
  @MinLength(1, { message: "Parameter 'name' not specified." })
  name: string;

  @ApiProperty({ example: 'en' })
  @IsString({ message: "Parameter 'source_lang' not specified." })
  source_lang: string;

  @ApiProperty({ example: 'de' })
  @IsString({ message: "Parameter 'target_lang' not specified." })
  target_lang: string;

  @ApiProperty({ description: 'One entry per line: `source<TAB>target` (tsv) or `source,target` (csv)' })
  @IsString({ message: "Parameter 'entries' not specified." })
  entries: string;

  @ApiPropertyOptional({ enum: ['tsv', 'csv'], default: 'tsv' })
  @IsOptional()
  @IsIn(['tsv', 'csv'], { message: "Value for 'entries_format' not supported." })
  entries_format?: 'tsv' | 'csv';
}

export class DeepLGlossaryDto {
  @ApiProperty({ format: 'uuid', description: 'The id of our glossary: usable as `glossary` in /api/v1/translate too' })
  glossary_id: string;

  @ApiProperty()
  name: string;

  @ApiProperty({ description: 'Always true: a glossary is usable once created' })
  ready: boolean;

  @ApiProperty({ example: 'en' })
  source_lang: string;

  @ApiProperty({ example: 'de', description: 'For a glossary made under /api/v1 with several targets, the first of them' })
  target_lang: string;

  @ApiProperty({ example: '2026-11-23T21:00:00.000Z' })
  creation_time: string;

  @ApiProperty()
  entry_count: number;
}

export class DeepLGlossaryListDto {
  @ApiProperty({ type: [DeepLGlossaryDto] })
  glossaries: DeepLGlossaryDto[];
}
