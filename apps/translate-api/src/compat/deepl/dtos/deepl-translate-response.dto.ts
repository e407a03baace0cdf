import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { FormalityReportDto } from '@platform/style-profiles';

export class DeepLTranslationDto {
  @ApiProperty({ example: 'EN', description: 'The given source language, or the one detected for this text' })
  detected_source_language: string;

  @ApiProperty()
  text: string;

  @ApiProperty({ description: "The text's charged words × 6 (see GET /v2/usage)" })
  billed_characters: number;
}

export class DeepLTranslateResponseDto {
  @ApiPropertyOptional({ format: 'uuid', description: "Ours, not DeepL's: the style profile applied, as in /api/v1/translate" })
  style_profile?: string;

  @ApiPropertyOptional({ type: FormalityReportDto, description: "Ours, not DeepL's: with a formality asked for, which engines applied it and which could not" })
  formality?: FormalityReportDto;

  @ApiProperty({ type: [DeepLTranslationDto], description: 'In the order of the texts' })
  translations: DeepLTranslationDto[];
}
