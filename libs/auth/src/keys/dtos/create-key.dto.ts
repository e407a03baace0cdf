import { ApiPropertyOptional } from '@nestjs/swagger';
import type { KeyScope } from '@platform/contracts';
import { KEY_SCOPES, type NewApiKey } from '../api-key.service';
import { ArrayNotEmpty, IsArray, IsBoolean, IsIn, IsOptional, IsString, Length } from 'class-validator';
import { KeyLimitsDto } from './key-limits.dto';

export class CreateKeyDto extends KeyLimitsDto {
  @ApiPropertyOptional({ description: 'Label shown in listings', minLength: 1, maxLength: 100, example: 'staging server' })
  @IsOptional()
  @IsString()
  @Length(1, 100)
  name?: string;

  @ApiPropertyOptional({
    description:
      'true for a svc_test_ key with the sandbox test quota. Defaults to the kind of the calling key; ' +
      'a sandbox key can only create sandbox keys (403 forbidden otherwise). Live keys only for accounts activated for production (403 forbidden otherwise).',
  })
  @IsOptional()
  @IsBoolean()
  sandbox?: boolean;

  @ApiPropertyOptional({
    enum: KEY_SCOPES,
    isArray: true,
    default: ['translate'],
    description: '`manage` also allows key and webhook management; every key can translate',
  })
  @IsOptional()
  @IsArray()
  @ArrayNotEmpty()
  @IsIn(KEY_SCOPES, { each: true })
  scopes?: KeyScope[];
}

/** The key a creation asks for, of the kind decided by the caller (the body's `sandbox` or its default). */
export function requestedKey(body: CreateKeyDto, sandbox: boolean): NewApiKey {
  return { sandbox, name: body.name, scopes: body.scopes, monthlyWordLimit: body.monthly_word_limit, rateLimitPerMinute: body.rate_limit_per_minute };
}
