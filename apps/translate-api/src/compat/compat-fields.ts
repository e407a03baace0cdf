import { applyDecorators } from '@nestjs/common';
import { ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { Allow } from 'class-validator';

/** A field that may come once (a string) or repeated (DeepL's form `text`, LibreTranslate's `q` array) as an array. */
export const AsList = () => Transform(({ value }) => (typeof value === 'string' ? [value] : value));

/** DeepL's tag lists: one comma-separated string, repeated form fields or a JSON array, each item possibly comma-separated. */
export const AsCommaList = () =>
  Transform(({ value }) => (typeof value === 'string' ? [value] : value)?.flatMap?.((item: unknown) => (typeof item === 'string' ? item.split(',') : [item])) ?? value);

/** Form bodies carry booleans as "0"/"1"; JSON bodies as either. */
export const AsFlag = () =>
  Transform(({ value }) => {
    const text = String(value).toLowerCase();
    return ['1', 'true'].includes(text) ? true : ['0', 'false'].includes(text) ? false : value;
  });

/** A vendor's parameter that is accepted so that its clients work, and has no effect here. */
export const Ignored = (description = 'Accepted and ignored') => applyDecorators(ApiPropertyOptional({ description }), Allow());
