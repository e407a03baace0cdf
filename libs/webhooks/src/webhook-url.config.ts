import { EnvList } from '@platform/service-kit';
import { IsString, ValidateBy } from 'class-validator';
import { isAllowedHostEntry, type WebhookUrlPolicy } from './url-guard/webhook-url.guard';

// TypeScript accepts exactly `any[]` as the constructor parameters of a mixin's base.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type ConfigClass = abstract new (...args: any[]) => { NODE_ENV: string };

const IsAllowedHostEntry = () =>
  ValidateBy(
    {
      name: 'isAllowedHostEntry',
      validator: {
        validate: (value: unknown) => typeof value === 'string' && isAllowedHostEntry(value),
        defaultMessage: () => 'each entry of WEBHOOK_ALLOWED_HOSTS must be a host name, an IP address or a CIDR block',
      },
    },
    { each: true },
  );

/**
 * Adds the webhook URL allow-list to the config of an app that registers or calls webhook URLs:
 * `class AppConfig extends withWebhookUrlConfig(DatabaseRedisConfig)`.
 */
export function withWebhookUrlConfig<TBase extends ConfigClass>(Base: TBase) {
  abstract class WithWebhookUrlConfig extends Base {
    /**
     * Comma-separated host names, addresses or CIDR blocks that webhooks may reach although they
     * are internal (e.g. `127.0.0.1,::1` for a receiver on the same machine). Empty: none.
     */
    @EnvList() @IsString({ each: true }) @IsAllowedHostEntry()
    WEBHOOK_ALLOWED_HOSTS: string[] = [];
  }
  return WithWebhookUrlConfig;
}

/** In production only https URLs are accepted; the allow-list applies in every mode. */
export function webhookUrlPolicy(config: { NODE_ENV: string; WEBHOOK_ALLOWED_HOSTS: string[] }): WebhookUrlPolicy {
  return { allowedHosts: config.WEBHOOK_ALLOWED_HOSTS, httpsOnly: config.NODE_ENV === 'production' };
}
