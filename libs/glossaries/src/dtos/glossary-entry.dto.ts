import { ApiProperty } from '@nestjs/swagger';

export class GlossaryEntryDto {
  @ApiProperty({ description: 'Source term; unique in the glossary, compared case-insensitively', maxLength: 200, example: 'cloud' })
  term: string;

  @ApiProperty({
    type: 'object',
    additionalProperties: { type: 'string', maxLength: 200 },
    description: 'Binding translation per target language (ISO 639-1 code of an official EU language other than the source)',
    example: { de: 'Wolke', fr: 'nuage' },
  })
  translations: Record<string, string>;
}
