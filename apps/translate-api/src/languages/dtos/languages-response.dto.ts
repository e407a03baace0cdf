import { ApiProperty } from '@nestjs/swagger';
import { EU_LANGUAGES } from '@platform/contracts';

export class LanguageDto {
  @ApiProperty({ enum: EU_LANGUAGES, description: 'ISO 639-1 code', example: 'de' })
  code: string;

  @ApiProperty({ description: 'Name of the language in the language itself, capitalised', example: 'Deutsch' })
  name: string;
}

export class SourceLanguageDto extends LanguageDto {
  @ApiProperty({
    enum: EU_LANGUAGES,
    isArray: true,
    description: 'The languages this one can be translated into now, sorted by code: each is in `target`, and a pair not listed here is refused with 422',
    example: ['es', 'fr', 'it', 'pt'],
  })
  targets: string[];
}

export class LanguagesResponseDto {
  @ApiProperty({ enum: [true] })
  ok: true;

  @ApiProperty({ type: [SourceLanguageDto], description: 'Languages that can be translated from now, sorted by code, each with the targets it reaches' })
  source: SourceLanguageDto[];

  @ApiProperty({ type: [LanguageDto], description: 'Languages that can be translated into now from at least one source, sorted by code' })
  target: LanguageDto[];
}
