import { ApiProperty } from '@nestjs/swagger';
import { EU_LANGUAGES } from '@platform/contracts';
import { GlossaryEntryDto, MAX_GLOSSARY_ENTRIES, MAX_GLOSSARY_NAME_LENGTH } from '@platform/glossaries';

/**
 * The JSON form of a glossary upload. Only documentation: the body is read by the glossaries lib,
 * which also reads the CSV form, so both obey the same rules and messages.
 */
export class GlossaryInputDto {
  @ApiProperty({ minLength: 1, maxLength: MAX_GLOSSARY_NAME_LENGTH, example: 'Product terms' })
  name: string;

  @ApiProperty({ enum: EU_LANGUAGES, description: 'Language of the terms', example: 'en' })
  source: string;

  @ApiProperty({ type: [GlossaryEntryDto], minItems: 1, maxItems: MAX_GLOSSARY_ENTRIES })
  entries: GlossaryEntryDto[];
}
