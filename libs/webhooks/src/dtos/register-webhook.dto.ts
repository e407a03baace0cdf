import { ApiProperty } from '@nestjs/swagger';
import { MAX_WEBHOOK_URL_LENGTH } from '../url-guard/webhook-url.guard';
import { IsNotEmpty, IsString, MaxLength } from 'class-validator';

export class RegisterWebhookDto {
  @ApiProperty({
    description:
      'Where events are POSTed. http or https (https only in production); its host must resolve to public Internet addresses ' +
      'only, unless the operator allows it (WEBHOOK_ALLOWED_HOSTS).',
    maxLength: MAX_WEBHOOK_URL_LENGTH,
    example: 'https://example.com/hooks/translation',
  })
  @IsString()
  @IsNotEmpty()
  @MaxLength(MAX_WEBHOOK_URL_LENGTH)
  url: string;
}
