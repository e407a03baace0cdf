import { createHash } from 'node:crypto';
import type { ConversionParams } from './conversion-params';

/** Namespace of image ids (a random UUID fixed once; changing it would orphan every stored image). */
const IMAGE_NAMESPACE = '3f4b6c0e-8d27-4a61-9a1e-5c2f7d9b1e40';

/** RFC 9562 UUID version 5: SHA-1 of namespace and name, with the version and variant bits set. */
export function uuidV5(name: string, namespace: string): string {
  const hash = createHash('sha1').update(Buffer.from(namespace.replace(/-/g, ''), 'hex')).update(name, 'utf8').digest();
  hash[6] = (hash[6] & 0x0f) | 0x50;
  hash[8] = (hash[8] & 0x3f) | 0x80;
  const hex = hash.subarray(0, 16).toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/**
 * The id both formats of a conversion are stored under: the same bytes with the same quality and
 * bounds give the same id whichever format is asked for first, so repeats reuse stored objects.
 */
export function imageId(content: Buffer, params: ConversionParams): string {
  const digest = createHash('sha256').update(content).digest('hex');
  const name = [digest, `q=${params.quality ?? 'default'}`, `w=${params.maxWidth ?? ''}`, `h=${params.maxHeight ?? ''}`].join('|');
  return uuidV5(name, IMAGE_NAMESPACE);
}
