import { ApiProperty } from '@nestjs/swagger';

export class DeepLTranslationDto {
  @ApiProperty({ example: 'EN', description: 'The given source language, or the one detected for this text' })
  detected_source_language: string;

  @ApiProperty()
  text: string;

  @ApiProperty({ description: "The text's charged words × 6 (see GET /v2/usage)" })
  billed_characters: number;
}

export class DeepLTranslateResponseDto {
  @ApiProperty({ type: [DeepLTranslationDto], description: 'In the order of the texts' })
  translations: DeepLTranslationDto[];
}
