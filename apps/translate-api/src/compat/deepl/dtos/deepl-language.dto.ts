import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional } from 'class-validator';

export class DeepLLanguagesQueryDto {
  @ApiPropertyOptional({ enum: ['source', 'target'], default: 'source' })
  @IsOptional()
  @IsIn(['source', 'target'], { message: "Value for 'type' not supported." })
  type?: 'source' | 'target';
}

export class DeepLLanguageDto {
  @ApiProperty({ example: 'EN-GB' })
  language: string;

  @ApiProperty({ example: 'English (British)' })
  name: string;

  @ApiPropertyOptional({ description: 'Targets only; always false, our engines have no formality control' })
  supports_formality?: boolean;
}

export class DeepLUsageDto {
  @ApiProperty({ description: 'Words charged to the key this month × 6' })
  character_count: number;

  @ApiProperty({ description: "The key's monthly word limit (or its account's, if lower) × 6; 10^12 when unlimited" })
  character_limit: number;

  @ApiProperty({ description: 'Words charged to the key this month, as GET /api/v1/usage' })
  words: number;

  @ApiProperty({ nullable: true, type: Number, description: 'The monthly word limit, null when unlimited' })
  word_limit: number | null;
}
