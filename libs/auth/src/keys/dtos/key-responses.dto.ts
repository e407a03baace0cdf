import { ApiProperty } from '@nestjs/swagger';
import type { KeyScope } from '@platform/contracts';
import { ApiKey } from '../api-key.entity';
import { apiKeyPrefix } from '../api-key-secret.util';
import { KEY_SCOPES, type IssuedApiKey } from '../api-key.service';

/** How a key is shown after creation: everything but the secret, which is never stored. */
export class KeyViewDto {
  @ApiProperty({ format: 'uuid' })
  id: string;

  @ApiProperty({ type: String, nullable: true })
  name: string | null;

  @ApiProperty({ enum: ['svc_test_', 'svc_live_'] })
  prefix: string;

  @ApiProperty({ description: 'Last four characters of the key, to tell keys apart', example: 'x7Qa' })
  hint: string;

  @ApiProperty()
  sandbox: boolean;

  @ApiProperty({ enum: KEY_SCOPES, isArray: true })
  scopes: KeyScope[];

  @ApiProperty({ type: 'integer', nullable: true })
  monthly_word_limit: number | null;

  @ApiProperty({ type: 'integer', nullable: true, description: 'null: the service default applies' })
  rate_limit_per_minute: number | null;

  @ApiProperty({ format: 'date-time' })
  created_at: Date;

  @ApiProperty({ description: 'A revoked key is refused with 401 and cannot be changed or regenerated' })
  revoked: boolean;

  @ApiProperty({ type: String, format: 'date-time', nullable: true, description: 'When the key was last used, to the minute; null: never' })
  last_used_at: Date | null;

  @ApiProperty({
    type: String,
    format: 'date-time',
    nullable: true,
    description: 'After a regeneration with a window: until when the previous secret is still accepted; null when it is not',
  })
  previous_secret_expires_at: Date | null;

  static from(key: ApiKey): KeyViewDto {
    return {
      id: key.id,
      name: key.name,
      prefix: apiKeyPrefix(key.sandbox),
      hint: key.keyHint,
      sandbox: key.sandbox,
      scopes: key.scopes,
      monthly_word_limit: key.monthlyWordLimit,
      rate_limit_per_minute: key.rateLimitPerMinute,
      created_at: key.createdAt,
      revoked: key.revokedAt !== null,
      last_used_at: key.lastUsedAt,
      previous_secret_expires_at: key.previousKeyExpiresAt && key.previousKeyExpiresAt > new Date() && !key.revokedAt ? key.previousKeyExpiresAt : null,
    };
  }
}

export class KeyListResponseDto {
  @ApiProperty({ enum: [true] })
  ok: true;

  @ApiProperty({ type: [KeyViewDto] })
  keys: KeyViewDto[];
}

export class KeyResponseDto {
  @ApiProperty({ enum: [true] })
  ok: true;

  @ApiProperty()
  key: KeyViewDto;
}

export class IssuedKeyResponseDto extends KeyResponseDto {
  @ApiProperty({ description: 'The plain key. It is shown only in this response; store it now', example: 'svc_test_...' })
  secret: string;

  static from({ key, secret }: IssuedApiKey): IssuedKeyResponseDto {
    return { ok: true, key: KeyViewDto.from(key), secret };
  }
}
