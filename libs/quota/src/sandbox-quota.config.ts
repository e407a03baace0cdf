import { EnvInt } from '@platform/service-kit';
import { IsInt, Max, Min } from 'class-validator';

// TypeScript accepts exactly `any[]` as the constructor parameters of a mixin's base.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type ConfigClass = abstract new (...args: any[]) => object;

/** Adds the sandbox quota to the config of an app that charges or shows usage against it. */
export function withSandboxQuotaConfig<TBase extends ConfigClass>(Base: TBase) {
  abstract class WithSandboxQuotaConfig extends Base {
    /** Test quota: words per calendar month (UTC) of all sandbox keys of an account together. */
    @EnvInt() @IsInt() @Min(0) @Max(Number.MAX_SAFE_INTEGER)
    SANDBOX_MONTHLY_WORDS = 50_000;
  }
  return WithSandboxQuotaConfig;
}
