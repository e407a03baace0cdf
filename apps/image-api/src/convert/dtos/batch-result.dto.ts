import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { OUTPUT_FORMATS, type OutputFormat } from '@platform/image-conversion';

export class CdnUrlsDto {
  @ApiProperty({ example: 'https://cdn.example.com/0b6a3c36-4d1e-5f0a-9c47-1f0e2d3c4b5a.webp' })
  webp: string;

  @ApiProperty({ example: 'https://cdn.example.com/0b6a3c36-4d1e-5f0a-9c47-1f0e2d3c4b5a.avif' })
  avif: string;
}

/** One file of a batch: the conversion's figures, or why it failed. */
export class BatchItemDto {
  @ApiProperty({ description: 'Name of the uploaded file as the client sent it' })
  filename: string;

  @ApiProperty()
  success: boolean;

  @ApiPropertyOptional({ enum: OUTPUT_FORMATS })
  format?: OutputFormat;

  @ApiPropertyOptional({ description: 'Bytes of the input' })
  originalSize?: number;

  @ApiPropertyOptional({ description: 'Bytes of the output' })
  convertedSize?: number;

  @ApiPropertyOptional({ description: 'Percent of the input size saved, rounded; negative when the output is larger' })
  savings?: number;

  @ApiPropertyOptional({ format: 'uuid' })
  imageId?: string;

  @ApiPropertyOptional({ type: CdnUrlsDto })
  cdnUrls?: CdnUrlsDto;

  @ApiPropertyOptional({ description: 'Why this file failed (only when success is false)' })
  error_message?: string;
}

export class BatchResultDto {
  @ApiProperty({ description: 'True when every file was converted' })
  success: boolean;

  @ApiProperty({ type: [BatchItemDto], description: 'One element per uploaded file, in upload order' })
  results: BatchItemDto[];

  @ApiProperty({ description: 'Files in the request' })
  totalProcessed: number;

  @ApiProperty({ description: 'Files converted' })
  successCount: number;
}
