import { describe, expect, it } from 'vitest';
import { isAllowedHostEntry, WebhookUrlGuard, WebhookUrlRefusedError, type HostResolver } from './webhook-url.guard';

/** A resolver that answers from a table, so names can point anywhere without DNS. */
const stubResolver =
  (table: Record<string, string[]>): HostResolver =>
  async (hostname) => {
    const addresses = table[hostname];
    if (!addresses) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
    return addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
  };

const names = stubResolver({
  'public.example': ['93.184.215.14'],
  'public6.example': ['2606:4700::1111', '93.184.215.14'],
  'internal.example': ['10.0.0.1'],
  'partly-internal.example': ['93.184.215.14', '192.168.1.5'],
  'mapped.example': ['::ffff:127.0.0.1'],
  'metadata.example': ['fd00:ec2::254'],
  'empty.example': [],
  'bogus.example': ['not-an-address'],
});

const guard = (allowedHosts: string[] = [], httpsOnly = false) => new WebhookUrlGuard({ allowedHosts, httpsOnly }, names);

async function refusal(work: Promise<unknown>): Promise<string> {
  const error = await work.then(
    () => expect.fail('the URL was accepted'),
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(WebhookUrlRefusedError);
  return (error as Error).message;
}

describe('WebhookUrlGuard', () => {
  it('accepts public hosts and names the address to connect to', async () => {
    expect(await guard().vet('https://public.example/hooks?x=1')).toMatchObject({ address: '93.184.215.14', family: 4 });
    expect((await guard().vet('https://public.example/hooks?x=1')).url.href).toBe('https://public.example/hooks?x=1');
    expect(await guard().vet('http://public6.example/')).toMatchObject({ address: '2606:4700::1111', family: 6 });
    expect(await guard().vet('http://93.184.215.14:8080/')).toMatchObject({ address: '93.184.215.14' });
    expect(await guard().vet('http://[2606:4700::1111]/')).toMatchObject({ address: '2606:4700::1111', family: 6 });
  });

  it.each([
    ['http://127.0.0.1/', 'a loopback address'],
    ['http://127.255.0.9/', 'a loopback address'],
    ['http://2130706433/', 'a loopback address'],
    ['http://0x7f.1/', 'a loopback address'],
    ['http://10.0.0.1/', 'a private address'],
    ['http://172.16.0.1/', 'a private address'],
    ['http://172.31.255.255/', 'a private address'],
    ['http://192.168.1.1/', 'a private address'],
    ['http://169.254.169.254/latest/meta-data/', 'a cloud metadata address'],
    ['http://169.254.10.1/', 'a link-local address'],
    ['http://100.64.0.1/', 'a carrier-grade NAT address'],
    ['http://100.127.255.255/', 'a carrier-grade NAT address'],
    ['http://0.0.0.0/', 'an unspecified address'],
    ['http://224.0.0.1/', 'a multicast address'],
    ['http://255.255.255.255/', 'the broadcast address'],
    ['http://[::1]/', 'a loopback address'],
    ['http://[::]/', 'an unspecified address'],
    ['http://[fe80::1]/', 'a link-local address'],
    ['http://[fc00::1]/', 'a private address'],
    ['http://[fec0::1]/', 'a site-local address'],
    ['http://[fd12:3456::1]/', 'a private address'],
    ['http://[fd00:ec2::254]/', 'a cloud metadata address'],
    ['http://[ff02::1]/', 'a multicast address'],
    ['http://[::ffff:127.0.0.1]/', 'a loopback address'],
    ['http://[::ffff:a9fe:a9fe]/', 'a cloud metadata address'],
    ['http://[::ffff:10.1.2.3]/', 'a private address'],
    ['http://[64:ff9b::a00:1]/', 'a private address (embedded in IPv6)'],
    ['http://[2002:c0a8:101::1]/', 'a private address (embedded in IPv6)'],
  ])('refuses %s (%s)', async (url, kind) => {
    expect(await refusal(guard().vet(url))).toMatch(new RegExp(`^The URL points to .+, ${kind.replace(/[()]/g, '\\$&')}; webhooks are only delivered to public Internet addresses$`));
  });

  it.each(['http://172.15.255.255/', 'http://172.32.0.0/', 'http://100.63.255.255/', 'http://100.128.0.0/', 'http://169.255.0.1/', 'http://[fbff::1]/'])(
    'draws range boundaries exactly: %s is public',
    async (url) => {
      await expect(guard().vet(url)).resolves.toBeDefined();
    },
  );

  it.each(['internal.example', 'partly-internal.example', 'mapped.example', 'metadata.example', 'nowhere.example', 'empty.example', 'bogus.example'])(
    'refuses %s, which resolves to an internal address or to none, without saying what it resolves to',
    async (host) => {
      expect(await refusal(guard().vet(`http://${host}/`))).toBe(
        `The host ${host} is not allowed: webhooks are only delivered to public Internet addresses, and it does not resolve to one`,
      );
    },
  );

  it('lets the allow-list name hosts, addresses and blocks, and nothing beyond them', async () => {
    expect(await guard(['internal.example']).vet('http://INTERNAL.example./')).toMatchObject({ address: '10.0.0.1' });
    expect(await guard(['10.0.0.0/8']).vet('http://internal.example/')).toMatchObject({ address: '10.0.0.1' });
    expect(await guard(['10.0.0.0/8']).vet('http://10.200.3.4/')).toMatchObject({ address: '10.200.3.4' });
    expect(await refusal(guard(['10.0.0.0/8']).vet('http://192.168.1.1/'))).toMatch(/a private address/);
    expect(await guard(['127.0.0.1', '::1']).vet('http://127.0.0.1:8080/')).toMatchObject({ address: '127.0.0.1' });
    expect(await guard(['127.0.0.1', '::1']).vet('http://[::1]:8080/')).toMatchObject({ address: '::1', family: 6 });
    expect(await guard(['127.0.0.1']).vet('http://mapped.example/')).toMatchObject({ address: '::ffff:127.0.0.1' });
    expect(await refusal(guard(['127.0.0.1']).vet('http://127.0.0.2/'))).toMatch(/a loopback address/);
    expect(await refusal(guard(['other.example']).vet('http://internal.example/'))).toMatch(/^The host internal\.example is not allowed/);
  });

  it('accepts only https when told to (production)', async () => {
    expect(await refusal(guard([], true).vet('http://public.example/'))).toBe('The URL must use https');
    await expect(guard([], true).vet('https://public.example/')).resolves.toBeDefined();
  });

  it.each([
    ['not a url', 'The URL is not an absolute URL'],
    ['/relative/path', 'The URL is not an absolute URL'],
    ['ftp://public.example/', 'The URL must use http or https'],
    ['file:///etc/passwd', 'The URL must use http or https'],
    ['http://user:secret@public.example/', 'The URL must not contain a user name or password'],
    [`https://public.example/${'a'.repeat(2048)}`, 'The URL is longer than 2048 characters'],
  ])('refuses the malformed URL %s', async (url, message) => {
    expect(await refusal(guard().vet(url))).toBe(message);
  });
});

describe('isAllowedHostEntry', () => {
  it.each(['localhost', 'hooks.example.com', '127.0.0.1', '::1', '10.0.0.0/8', 'fd00::/8', 'svc_1.internal'])('accepts %s', (entry) => {
    expect(isAllowedHostEntry(entry)).toBe(true);
  });

  it.each(['10.0.0.0/33', '::1/129', 'http://x', 'a b', '10.0.0.0/8/1', '-bad.example', ''])('refuses %s', (entry) => {
    expect(isAllowedHostEntry(entry)).toBe(false);
  });
});
