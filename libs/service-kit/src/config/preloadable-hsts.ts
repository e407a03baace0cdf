import { ValidatorConstraint, type ValidatorConstraintInterface, type ValidationArguments } from 'class-validator';

/** One year: the least `max-age` the browsers' preload lists accept, and the default. */
export const HSTS_PRELOAD_MIN_AGE = 31_536_000;

interface HstsSettings {
  HSTS_MAX_AGE_SECONDS: number;
  HSTS_INCLUDE_SUBDOMAINS: boolean;
}

/** `preload` only with what the preload lists require of the header; they would refuse the host otherwise. */
@ValidatorConstraint({ name: 'preloadableHsts' })
export class PreloadableHsts implements ValidatorConstraintInterface {
  validate(preload: unknown, { object }: ValidationArguments): boolean {
    const { HSTS_MAX_AGE_SECONDS, HSTS_INCLUDE_SUBDOMAINS } = object as HstsSettings;
    return preload !== true || (HSTS_INCLUDE_SUBDOMAINS === true && HSTS_MAX_AGE_SECONDS >= HSTS_PRELOAD_MIN_AGE);
  }

  defaultMessage(): string {
    return `HSTS_PRELOAD needs HSTS_INCLUDE_SUBDOMAINS=true and HSTS_MAX_AGE_SECONDS of at least ${HSTS_PRELOAD_MIN_AGE}, as the browsers' preload lists require`;
  }
}
