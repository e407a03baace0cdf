import { ApiPropertyOptional } from '@nestjs/swagger';
import { validationExceptionFactory } from '@platform/errors';
import { type ConversionParams, DEFAULT_FORMAT, OUTPUT_FORMATS, type OutputFormat } from '@platform/image-conversion';
import { plainToInstance, Transform } from 'class-transformer';
import { IsIn, IsInt, IsNumber, IsOptional, IsString, Max, Min, validateSync } from 'class-validator';

/** Form fields are text: numbers are converted only when they are numbers, so "abc" stays invalid. */
const FormNumber = (pattern: RegExp) => Transform(({ value }) => (typeof value === 'string' && pattern.test(value.trim()) ? Number(value) : value));

/** The text fields of a conversion form; an empty field counts as absent, as HTML forms send them. */
export class ConvertParamsDto {
  @ApiPropertyOptional({ enum: OUTPUT_FORMATS, default: DEFAULT_FORMAT })
  @IsOptional() @IsIn(OUTPUT_FORMATS, { message: `format must be one of ${OUTPUT_FORMATS.join(', ')}` })
  format?: OutputFormat;

  @ApiPropertyOptional({ type: 'integer', minimum: 1, maximum: 100, description: 'Default 85 for webp, 80 for avif' })
  @IsOptional() @FormNumber(/^\d+$/) @IsInt({ message: 'quality must be an integer from 1 to 100' }) @Min(1, { message: 'quality must be an integer from 1 to 100' }) @Max(100, { message: 'quality must be an integer from 1 to 100' })
  quality?: number;

  @ApiPropertyOptional({ minimum: 1, description: 'Largest output width in pixels; the image is never enlarged' })
  @IsOptional() @FormNumber(/^\d+(\.\d+)?$/) @IsNumber({}, { message: 'max_width must be a positive number' }) @Min(1, { message: 'max_width must be a positive number' })
  max_width?: number;

  @ApiPropertyOptional({ minimum: 1, description: 'Largest output height in pixels; the image is never enlarged' })
  @IsOptional() @FormNumber(/^\d+(\.\d+)?$/) @IsNumber({}, { message: 'max_height must be a positive number' }) @Min(1, { message: 'max_height must be a positive number' })
  max_height?: number;

  @ApiPropertyOptional({
    description:
      'The access token, when it is not sent as X-Access-Token. It must come before the first file: a file part that arrives first is refused with 401 unread. Other fields may come before or after the files.',
  })
  @IsOptional() @IsString()
  access_token?: string;
}

/** Validates the form fields (422 naming every bad one, unknown fields included). */
export function parseConvertFields(fields: Record<string, string>): ConvertParamsDto {
  const given = Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== ''));
  const dto = plainToInstance(ConvertParamsDto, given);
  const errors = validateSync(dto, { whitelist: true, forbidNonWhitelisted: true });
  if (errors.length > 0) throw validationExceptionFactory(errors);
  return dto;
}

/** Fractional bounds are rounded down: an output is whole pixels and must stay inside them. */
export function conversionParams(dto: ConvertParamsDto): ConversionParams {
  return {
    format: dto.format ?? DEFAULT_FORMAT,
    quality: dto.quality,
    maxWidth: dto.max_width === undefined ? undefined : Math.floor(dto.max_width),
    maxHeight: dto.max_height === undefined ? undefined : Math.floor(dto.max_height),
  };
}
