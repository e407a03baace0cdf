import { ApiProperty, OmitType } from '@nestjs/swagger';
import { ArrayNotEmpty, IsArray, IsString, MinLength } from 'class-validator';
import { TranslateRequestDto } from '../../translate/dtos/translate-request.dto';

/**
 * The translate request's fields and rules. `texts` is redeclared for its larger limits, which
 * BatchService checks (413, not 422: the client has to split the batch, not correct it).
 */
export class BatchRequestDto extends OmitType(TranslateRequestDto, ['texts'] as const) {
  @ApiProperty({
    type: [String],
    description: '1 to 1,000 texts, at most 1,000,000 characters in all (over: 413 payload_too_large)',
    example: ['The cat is sleeping on the red sofa.', 'Good morning!'],
  })
  @IsArray()
  @ArrayNotEmpty({ message: 'texts must hold at least one text' })
  @IsString({ each: true })
  @MinLength(1, { each: true, message: 'texts must not contain empty strings' })
  texts: string[];
}
