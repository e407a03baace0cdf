import type { ServiceConfig } from '../config/service.config';

type HstsSettings = Pick<ServiceConfig, 'HSTS_MAX_AGE_SECONDS' | 'HSTS_INCLUDE_SUBDOMAINS' | 'HSTS_PRELOAD'>;

/**
 * The Strict-Transport-Security value of every answer that goes out over HTTPS: browsers then
 * reach the host over HTTPS only. Never sent over plain HTTP, where browsers ignore it (RFC 6797
 * 8.1) and where it would only suggest a protection that is not there.
 */
export function strictTransportSecurity(config: HstsSettings): string {
  const directives = [`max-age=${config.HSTS_MAX_AGE_SECONDS}`];
  if (config.HSTS_INCLUDE_SUBDOMAINS) directives.push('includeSubDomains');
  if (config.HSTS_PRELOAD) directives.push('preload');
  return directives.join('; ');
}
