import sharp from 'sharp';
import { crc32 } from 'node:zlib';

export interface SampleFile {
  label: string;
  filename: string;
  contentType: string;
  bytes: Buffer;
}

/** A PNG whose header claims `width` × `height` pixels, with a valid IHDR checksum and nothing else. */
function pngHeaderOnly(width: number, height: number): Buffer {
  const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.set([8, 6, 0, 0, 0], 8);
  const typeAndData = Buffer.concat([Buffer.from('IHDR'), ihdr]);
  const length = Buffer.alloc(4);
  length.writeUInt32BE(ihdr.length);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(typeAndData) >>> 0);
  const iend = Buffer.from([0, 0, 0, 0, 0x49, 0x45, 0x4e, 0x44, 0xae, 0x42, 0x60, 0x82]);
  return Buffer.concat([signature, length, typeAndData, crc, iend]);
}

/**
 * Small files for multipart parts: images the API should convert, and ones it must refuse
 * cleanly (truncated, header-declared bombs, vector, document, empty, random bytes).
 */
export async function sampleFiles(): Promise<{ valid: SampleFile[]; invalid: SampleFile[] }> {
  const base = sharp({ create: { width: 24, height: 16, channels: 3, background: { r: 200, g: 40, b: 90 } } });
  const [png, jpeg, webp, gif] = await Promise.all([base.clone().png().toBuffer(), base.clone().jpeg().toBuffer(), base.clone().webp().toBuffer(), base.clone().gif().toBuffer()]);
  const valid = [
    { label: 'PNG 24×16', filename: 'small.png', contentType: 'image/png', bytes: png },
    { label: 'JPEG 24×16', filename: 'small.jpg', contentType: 'image/jpeg', bytes: jpeg },
    { label: 'WebP 24×16', filename: 'small.webp', contentType: 'image/webp', bytes: webp },
    { label: 'GIF 24×16', filename: 'small.gif', contentType: 'image/gif', bytes: gif },
  ];
  const invalid = [
    { label: 'truncated PNG', filename: 'cut.png', contentType: 'image/png', bytes: png.subarray(0, Math.floor(png.length / 2)) },
    { label: 'PNG header declaring 100000×100000', filename: 'bomb.png', contentType: 'image/png', bytes: pngHeaderOnly(100_000, 100_000) },
    { label: 'PNG header declaring 0×0', filename: 'zero.png', contentType: 'image/png', bytes: pngHeaderOnly(0, 0) },
    {
      label: 'SVG with an external entity',
      filename: 'x.svg',
      contentType: 'image/svg+xml',
      bytes: Buffer.from('<?xml version="1.0"?><!DOCTYPE svg [<!ENTITY x SYSTEM "file:///etc/passwd">]><svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><text>&x;</text></svg>'),
    },
    { label: 'PDF', filename: 'doc.pdf', contentType: 'application/pdf', bytes: Buffer.from('%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n') },
    { label: 'empty file', filename: 'empty.png', contentType: 'image/png', bytes: Buffer.alloc(0) },
    { label: 'random bytes named .jpg', filename: 'noise.jpg', contentType: 'image/jpeg', bytes: Buffer.from(Array.from({ length: 512 }, (_, i) => (i * 7919) % 256)) },
    { label: 'PNG with a lying JPEG content type', filename: 'a.jpg', contentType: 'image/jpeg', bytes: png },
    { label: 'filename with traversal and NUL', filename: '../../etc/passwd\u0000.png', contentType: 'image/png', bytes: png },
  ];
  return { valid, invalid };
}
