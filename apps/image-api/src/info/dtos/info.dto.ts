import { ApiProperty } from '@nestjs/swagger';
import { OUTPUT_FORMATS, type OutputFormat } from '@platform/image-conversion';

export class InfoFormatsDto {
  @ApiProperty({ description: 'Image formats accepted as input', example: ['jpeg', 'png', 'webp', 'avif', 'gif', 'tiff'] })
  input: string[];

  @ApiProperty({ description: 'Formats images are converted to', enum: OUTPUT_FORMATS, isArray: true })
  output: OutputFormat[];
}

export class QualityDefaultsDto {
  @ApiProperty({ example: 85 })
  webp: number;

  @ApiProperty({ example: 80 })
  avif: number;
}

export class InfoDefaultsDto {
  @ApiProperty({ description: 'Output format when a request names none', enum: OUTPUT_FORMATS })
  format: OutputFormat;

  @ApiProperty({ description: 'Quality (1-100) per output format when a request names none', type: QualityDefaultsDto })
  quality: QualityDefaultsDto;
}

export class InfoLimitsDto {
  @ApiProperty({ description: 'Largest accepted file in bytes; larger files get 413', example: 26214400 })
  max_file_bytes: number;

  @ApiProperty({ description: 'Largest accepted image area (width × height); larger images get 422', example: 50000000 })
  max_pixels: number;

  @ApiProperty({ description: 'Most files in one batch request; more get 413', example: 10 })
  max_files_per_batch: number;
}

export class InfoDto {
  @ApiProperty({ example: 'Image Conversion API' })
  name: string;

  @ApiProperty({ example: '0.1.0' })
  version: string;

  @ApiProperty({ type: InfoFormatsDto })
  formats: InfoFormatsDto;

  @ApiProperty({ type: InfoDefaultsDto })
  defaults: InfoDefaultsDto;

  @ApiProperty({ type: InfoLimitsDto })
  limits: InfoLimitsDto;
}
