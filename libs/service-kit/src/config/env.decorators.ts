import { Transform } from 'class-transformer';

/**
 * Environment variables are strings; these decorators convert them explicitly so that a value
 * like "abc" stays invalid instead of silently becoming NaN or `true`.
 */
const isBlank = (value: unknown) => value === undefined || value === null || value === '';

export const EnvInt = () =>
  Transform(({ value }) => (isBlank(value) ? undefined : /^-?\d+$/.test(String(value).trim()) ? Number(value) : value));

export const EnvBool = () =>
  Transform(({ value }) => {
    if (isBlank(value)) return undefined;
    const v = String(value).trim().toLowerCase();
    if (['1', 'true', 'yes', 'on'].includes(v)) return true;
    if (['0', 'false', 'no', 'off'].includes(v)) return false;
    return value;
  });

export const EnvList = () =>
  Transform(({ value }) =>
    isBlank(value) ? undefined : Array.isArray(value) ? value : String(value).split(',').map((s) => s.trim()).filter(Boolean),
  );
