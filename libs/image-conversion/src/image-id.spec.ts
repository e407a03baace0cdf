import { describe, expect, it } from 'vitest';
import { imageId, uuidV5 } from './image-id';

describe('image ids', () => {
  it('computes RFC 9562 version 5 UUIDs', () => {
    // The RFC's own example: the DNS namespace and "www.example.com".
    expect(uuidV5('www.example.com', '6ba7b810-9dad-11d1-80b4-00c04fd430c8')).toBe('2ed6657d-e927-568b-95e1-2665a8aea6a2');
  });

  it('depends on the bytes, the quality and the bounds, not on the format', () => {
    const bytes = Buffer.from('image bytes');
    const base = imageId(bytes, { format: 'webp' });
    expect(imageId(Buffer.from('image bytes'), { format: 'avif' })).toBe(base);
    expect(imageId(Buffer.from('image bytez'), { format: 'webp' })).not.toBe(base);
    expect(imageId(bytes, { format: 'webp', quality: 85 })).not.toBe(base);
    expect(imageId(bytes, { format: 'webp', maxWidth: 800 })).not.toBe(imageId(bytes, { format: 'webp', maxHeight: 800 }));
  });
});
