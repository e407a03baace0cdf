import { plainToInstance } from 'class-transformer';
import { getMetadataStorage, validateSync, ValidationError } from 'class-validator';

export class ConfigError extends Error {}

/** A refused URL is quoted without its password (`scheme://user:***@host`): start-up errors end up in logs. */
const withoutPassword = (value: unknown) => (typeof value === 'string' ? value.replace(/(\/\/[^/@:\s]*:)\S*@/, '$1***@') : value);

function describe(errors: ValidationError[]): string[] {
  return errors.flatMap((e) => [
    ...Object.values(e.constraints ?? {}).map((m) => `  ${e.property}=${JSON.stringify(withoutPassword(e.value) ?? '')}: ${m}`),
    ...describe(e.children ?? []),
  ]);
}

/**
 * Builds a validated config object from the environment. Property names are the variable names,
 * defaults are property initialisers; any invalid variable throws one error naming all of them.
 */
export function loadConfig<T extends object>(cls: new () => T, env: NodeJS.ProcessEnv = process.env): T {
  const defaults = new cls() as Record<string, unknown>;
  const given: Record<string, unknown> = {};
  for (const key of configVariables(cls)) {
    if (env[key] !== undefined && env[key] !== '') given[key] = env[key];
  }
  const config = plainToInstance(cls, { ...defaults, ...given });
  const errors = validateSync(config, { forbidUnknownValues: false });
  if (errors.length > 0) {
    throw new ConfigError(`Invalid configuration:\n${describe(errors).join('\n')}`);
  }
  return config;
}

/**
 * The environment variables a config class reads: properties with an initialiser, and validated
 * ones, since an optional setting without a default (`TLS_CERT_FILE?: string`) exists on the
 * class only through its validation decorators.
 */
export function configVariables(cls: new () => object): string[] {
  const validated = getMetadataStorage().getTargetValidationMetadatas(cls, '', true, false).map((rule) => rule.propertyName);
  return [...new Set([...Object.keys(new cls()), ...validated])];
}
