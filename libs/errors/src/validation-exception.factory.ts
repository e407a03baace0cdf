import { ValidationError } from 'class-validator';
import { ApiError } from './api-error';

function collect(errors: ValidationError[], prefix = ''): string[] {
  return errors.flatMap((e) => {
    const path = prefix ? `${prefix}.${e.property}` : e.property;
    const own = Object.values(e.constraints ?? {}).map((m) => (m.startsWith(e.property) ? `${prefix ? prefix + '.' : ''}${m}` : `${path}: ${m}`));
    return [...own, ...collect(e.children ?? [], path)];
  });
}

/** ValidationPipe failures become 422 with every violated rule spelled out in `message`. */
export function validationExceptionFactory(errors: ValidationError[]): ApiError {
  // Rules of one field often share one message ("quality must be an integer from 1 to 100").
  return ApiError.invalidParameter([...new Set(collect(errors))].join('; ') || 'Invalid request');
}
