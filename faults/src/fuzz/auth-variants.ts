import fc from 'fast-check';
import type { SecurityScheme } from './openapi-document';
import { nastyString } from './schema-values';

/** Where a credential goes: a header, a query parameter or a cookie, as its scheme says. */
export interface Credential {
  scheme: SecurityScheme;
  value: string | string[];
}

export interface AuthChoice {
  label: string;
  credentials: Credential[];
}

const BASE62 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789'.split('');

/** Header values Node will send: UTF-8 bytes as latin1, controls (CR, LF, NUL) removed. */
export function headerSafe(value: string): string {
  return Buffer.from(value, 'utf8')
    .toString('latin1')
    .replace(/[^\t\x20-\x7e\x80-\xff]/g, '');
}

/** `credentials` maps a scheme name to one secret or a comma-separated list, used in turn. */
export function parseCredentials(credentials: Record<string, string>): Record<string, string[]> {
  return Object.fromEntries(
    Object.entries(credentials).map(([scheme, list]) => [
      scheme,
      list
        .split(',')
        .map((secret) => secret.trim())
        .filter(Boolean),
    ]),
  );
}

/** How a secret is written for its scheme: `Bearer <secret>` for HTTP bearer, the bare secret for API keys. */
function written(scheme: SecurityScheme, secret: string): string {
  if (scheme.type === 'http' && scheme.scheme === 'bearer') return `Bearer ${secret}`;
  if (scheme.type === 'http' && scheme.scheme === 'basic') return `Basic ${Buffer.from(`${secret}:`).toString('base64')}`;
  return secret;
}

/** The same secret under other prefixes: the other mode (test/live), another product's, none. */
function otherPrefixes(secret: string, known: string[]): string[] {
  const match = /^([a-z]+_)((?:test|live)_)?(.+)$/.exec(secret);
  if (!match) return [`x_${secret}`, secret.slice(1)];
  const [, product, mode = '', rest] = match;
  const products = [...new Set(known.map((other) => /^([a-z]+_)/.exec(other)?.[1]).filter((p): p is string => !!p && p !== product)), 'sk_'];
  const modes = mode === 'test_' ? ['live_'] : mode === 'live_' ? ['test_'] : [];
  return [...modes.map((m) => product + m + rest), ...products.map((p) => p + mode + rest), rest, product.toUpperCase() + mode + rest];
}

const pick = (secrets: Record<string, string[]>, scheme: SecurityScheme) => fc.nat().map((n) => secrets[scheme.name]?.[n % secrets[scheme.name].length]);

/** Every scheme of the requirement with one of its secrets, taken in turn from the given list. */
export function validAuth(required: SecurityScheme[], secrets: Record<string, string[]>): fc.Arbitrary<AuthChoice> {
  return fc.tuple(...required.map((scheme) => pick(secrets, scheme))).map((chosen) => ({
    label: 'auth valid',
    credentials: required.flatMap((scheme, i) => (chosen[i] ? [{ scheme, value: written(scheme, chosen[i]) }] : [])),
  }));
}

/** Credentials that must be refused: missing, malformed, under a wrong prefix, another scheme's secret, sent twice. */
export function invalidAuth(required: SecurityScheme[], secrets: Record<string, string[]>, allSchemes: SecurityScheme[]): fc.Arbitrary<AuthChoice> {
  const known = Object.values(secrets).flat();
  const first = required[0];
  const others = allSchemes.filter((scheme) => scheme.name !== first.name);
  const invalid = fc.tuple(pick(secrets, first), fc.nat(), nastyString, fc.array(fc.constantFrom(...BASE62), { minLength: 32, maxLength: 48 })).map(([secret = 'svc_test_0', n, nasty, random]) => {
    const randomSecret = `${/^[a-z]+_(?:(?:test|live)_)?/.exec(secret)?.[0] ?? ''}${random.join('')}`;
    const foreign = known.filter((other) => !secrets[first.name]?.includes(other));
    const variants: [string, string | string[]][] = [
      ['auth malformed: scheme word alone', first.type === 'http' ? 'Bearer' : ''],
      ['auth malformed: no scheme word', secret],
      ['auth malformed: Basic with the secret', `Basic ${Buffer.from(`${secret}:`).toString('base64')}`],
      ['auth malformed: one character more', written(first, `${secret}x`)],
      ['auth malformed: one character less', written(first, secret.slice(0, -1))],
      ['auth malformed: upper case', written(first, secret.toUpperCase())],
      ['auth malformed: percent-encoded', written(first, secret.replace(/^./, (c) => `%${c.charCodeAt(0).toString(16)}`))],
      ['auth malformed: surrounded by spaces', `  ${written(first, secret)}  `],
      ['auth malformed: two secrets', `${written(first, secret)}, ${written(first, secret)}`],
      ['auth malformed: nasty string', headerSafe(written(first, nasty))],
      ['auth unknown secret of the right shape', written(first, randomSecret)],
      ...otherPrefixes(secret, known).map((other): [string, string] => ['auth wrong prefix', written(first, other)]),
      ...foreign.map((other): [string, string] => ['auth another scheme’s secret', written(first, other)]),
      ['auth header twice', [written(first, secret), written(first, randomSecret)]],
    ];
    const [label, value] = variants[n % variants.length];
    return { label, credentials: [{ scheme: first, value }] };
  });
  const missing = fc.constant<AuthChoice>({ label: 'auth missing', credentials: [] });
  const misplaced = others.length
    ? fc.tuple(pick(secrets, first), fc.constantFrom(...others)).map(([secret = '', scheme]) => ({ label: `auth in the ${scheme.name} scheme’s place`, credentials: [{ scheme, value: written(scheme, secret) }] }))
    : missing;
  return fc.oneof({ arbitrary: missing, weight: 1 }, { arbitrary: invalid, weight: 3 }, { arbitrary: misplaced, weight: 1 });
}
