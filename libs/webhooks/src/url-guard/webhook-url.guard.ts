import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { IpRange, parseIp, unmapIpv4 } from './ip-address';
import { specialAddressKind } from './special-addresses';

export interface ResolvedAddress {
  address: string;
  family: number;
}

/** Every address a host name resolves to; injectable so tests can resolve names without DNS. */
export type HostResolver = (hostname: string) => Promise<ResolvedAddress[]>;

/** The system resolver (getaddrinfo, /etc/hosts included), as the HTTP client would use it. */
export const systemResolver: HostResolver = (hostname) => lookup(hostname, { all: true, verbatim: true });

export interface WebhookUrlPolicy {
  /** Host names, addresses and CIDR blocks exempt from the address check (WEBHOOK_ALLOWED_HOSTS). */
  allowedHosts: readonly string[];
  /** Refuse plain http (production). */
  httpsOnly: boolean;
}

/** A URL that passed the check, with the address it was checked at: connect there and nowhere else. */
export interface VettedWebhookUrl {
  url: URL;
  address: string;
  family: 4 | 6;
}

/** The reason is meant for the account owner: it names the URL's problem, never our internals. */
export class WebhookUrlRefusedError extends Error {
  override readonly name = 'WebhookUrlRefusedError';
}

export const MAX_WEBHOOK_URL_LENGTH = 2048;
const RESOLVE_TIMEOUT_MS = 5_000;
const HOST_NAME = /^(?=.{1,253}\.?$)[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?(?:\.[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?)*\.?$/i;

/** Whether a WEBHOOK_ALLOWED_HOSTS entry is a host name, an address or a CIDR block. */
export function isAllowedHostEntry(entry: string): boolean {
  return IpRange.parse(entry) !== null || HOST_NAME.test(entry);
}

const refuse = (message: string) => new WebhookUrlRefusedError(message);

const PUBLIC_ONLY = 'webhooks are only delivered to public Internet addresses';

/**
 * An address the customer wrote may be named with its kind; what a name resolves to may not:
 * refusals would map the internal DNS. A name that does not resolve gets the same answer, so
 * refusals do not tell which internal names exist either.
 */
const hostRefused = (host: string) => refuse(`The host ${host} is not allowed: ${PUBLIC_ONLY}, and it does not resolve to one`);

/**
 * Keeps webhooks away from the service's own network (SSRF): a URL is accepted only when every
 * address its host resolves to is a public unicast address, or the operator's allow-list names
 * the host or the address. It is checked when the URL is registered and again before each
 * delivery, which then connects to the checked address, so a DNS answer that changes in between
 * (rebinding) cannot redirect the request.
 */
export class WebhookUrlGuard {
  private readonly hosts = new Set<string>();
  private readonly ranges: IpRange[] = [];

  constructor(
    private readonly policy: WebhookUrlPolicy,
    private readonly resolve: HostResolver = systemResolver,
  ) {
    for (const entry of policy.allowedHosts) {
      const range = IpRange.parse(entry);
      if (range) this.ranges.push(range);
      else this.hosts.add(normalizeHost(entry));
    }
  }

  /** Throws WebhookUrlRefusedError with the reason; DNS failures are refusals too. */
  async vet(raw: string): Promise<VettedWebhookUrl> {
    const url = this.parse(raw);
    const host = normalizeHost(url.hostname);
    const addresses = await this.addressesOf(host);
    const hostAllowed = this.hosts.has(host);
    for (const { address } of addresses) {
      const ip = parseIp(address);
      if (!ip) throw hostRefused(host);
      if (hostAllowed || this.ranges.some((range) => range.contains(ip) || range.contains(unmapIpv4(ip)))) continue;
      const kind = specialAddressKind(ip);
      if (kind) throw isIP(host) ? refuse(`The URL points to ${address}, ${kind}; ${PUBLIC_ONLY}`) : hostRefused(host);
    }
    const [first] = addresses;
    return { url, address: first.address, family: isIP(first.address) === 6 ? 6 : 4 };
  }

  private parse(raw: string): URL {
    if (raw.length > MAX_WEBHOOK_URL_LENGTH) throw refuse(`The URL is longer than ${MAX_WEBHOOK_URL_LENGTH} characters`);
    let url: URL;
    try {
      url = new URL(raw);
    } catch {
      throw refuse('The URL is not an absolute URL');
    }
    if (url.protocol !== 'https:' && (this.policy.httpsOnly || url.protocol !== 'http:')) {
      throw refuse(this.policy.httpsOnly ? 'The URL must use https' : 'The URL must use http or https');
    }
    // Credentials in a URL end up in listings and logs; receivers authenticate us by the signature.
    if (url.username || url.password) throw refuse('The URL must not contain a user name or password');
    return url;
  }

  private async addressesOf(host: string): Promise<ResolvedAddress[]> {
    if (isIP(host)) return [{ address: host, family: isIP(host) }];
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error('timed out')), RESOLVE_TIMEOUT_MS)));
    try {
      const addresses = await Promise.race([this.resolve(host), timeout]);
      if (addresses.length === 0) throw new Error('no addresses');
      return addresses;
    } catch {
      throw hostRefused(host);
    } finally {
      clearTimeout(timer);
    }
  }
}

/** URL host names come lower-cased with IPv6 in brackets; a final dot names the same host. */
function normalizeHost(host: string): string {
  return host.replace(/^\[(.*)\]$/, '$1').replace(/\.$/, '').toLowerCase();
}
