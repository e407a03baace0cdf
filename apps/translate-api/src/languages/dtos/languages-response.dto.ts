import { ApiProperty } from '@nestjs/swagger';
import { EU_LANGUAGES } from '@platform/contracts';

export class LanguageDto {
  @ApiProperty({ enum: EU_LANGUAGES, description: 'ISO 639-1 code', example: 'de' })
  code: string;

  @ApiProperty({ description: 'Name of the language in the language itself, capitalised', example: 'Deutsch' })
  name: string;
}

export class LanguagesResponseDto {
  @ApiProperty({ enum: [true] })
  ok: true;

  @ApiProperty({ type: [LanguageDto], description: 'Languages that can be translated from now, sorted by code' })
  source: LanguageDto[];

  @ApiProperty({ type: [LanguageDto], description: 'Languages that can be translated into now, sorted by code' })
  target: LanguageDto[];
}
