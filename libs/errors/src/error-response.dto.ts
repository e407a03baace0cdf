import { ApiProperty } from '@nestjs/swagger';

/** OpenAPI shape of the translation service's error envelope. */
export class TranslationErrorDto {
  @ApiProperty({ example: 'invalid_key' })
  error: string;

  @ApiProperty()
  message: string;
}

/** OpenAPI shape of the image service's error envelope. */
export class ImageErrorDto {
  @ApiProperty()
  error_message: string;

  @ApiProperty({ description: 'true when retrying with the same token cannot succeed' })
  error_fatal_status: boolean;
}
