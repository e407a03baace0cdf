import { deflateSync } from 'node:zlib';
import sharp from 'sharp';

/**
 * Images for tests, made on the fly. Photos get a gradient with noise so encoders have real
 * work and sizes behave like a photo's.
 */
export async function photoJpeg(width: number, height: number, options: { orientation?: number; quality?: number; gps?: boolean } = {}): Promise<Buffer> {
  const raw = Buffer.alloc(width * height * 3);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * 3;
      raw[i] = (x * 255) / width;
      raw[i + 1] = (y * 255) / height;
      raw[i + 2] = (x ^ y) & 255;
    }
  }
  let image = sharp(raw, { raw: { width, height, channels: 3 } }).blur(1.5);
  if (options.orientation) image = image.withMetadata({ orientation: options.orientation });
  // Where the photo was taken, as a phone records it: 48°51'24" N, 2°21'7" E.
  if (options.gps) image = image.withExif({ IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '48/1 51/1 24/1', GPSLongitudeRef: 'E', GPSLongitude: '2/1 21/1 7/1' } });
  return image.jpeg({ quality: options.quality ?? 90 }).toBuffer();
}

/** Whether EXIF data (as sharp's metadata gives it) points to a GPS section (tag 0x8825, either byte order). */
export function exifHasGps(exif: Buffer | undefined): boolean {
  return !!exif && (exif.includes(Buffer.from([0x88, 0x25])) || exif.includes(Buffer.from([0x25, 0x88])));
}

export function solidPng(width: number, height: number): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: { r: 200, g: 40, b: 90 } } }).png().toBuffer();
}

/** An animated GIF; each frame's colour differs sharply from the one before, so the encoder merges none. */
export function animatedGif(width: number, height: number, frames: number): Promise<Buffer> {
  const frame = width * height * 4;
  const raw = Buffer.alloc(frame * frames);
  for (let f = 0; f < frames; f++) {
    raw.fill(Buffer.from([(f % 2) * 255, (Math.floor(f / 2) % 2) * 255, 60, 255]), f * frame, (f + 1) * frame);
  }
  return sharp(raw, { raw: { width, height: height * frames, channels: 4, pageHeight: height } }).gif({ delay: 100 }).toBuffer();
}

/** A valid PNG header declaring width × height with one tiny, meaningless data chunk: nothing to decode. */
export function pngDeclaring(width: number, height: number): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.set([8, 2, 0, 0, 0], 8); // 8-bit RGB, deflate, no filter, no interlace
  const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  return Buffer.concat([signature, chunk('IHDR', ihdr), chunk('IDAT', deflateSync(Buffer.alloc(16))), chunk('IEND', Buffer.alloc(0))]);
}

export const SVG_IMAGE = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="100" height="100"><rect width="100" height="100" fill="red"/></svg>');

function crc32(data: Buffer): number {
  let crc = ~0;
  for (const byte of data) {
    crc ^= byte;
    for (let k = 0; k < 8; k++) crc = (crc >>> 1) ^ (0xedb88320 & -(crc & 1));
  }
  return ~crc >>> 0;
}

export interface UploadResult {
  status: number;
  headers: Headers;
  bytes: Buffer;
  /** The body parsed as JSON, when it is JSON. */
  json: any;
}

/** Posts a multipart form: text fields, files under their part names (a name may repeat), more text fields. */
export async function postForm(
  baseUrl: string,
  path: string,
  form: {
    files?: [field: string, data: Buffer, filename?: string][];
    /** Sent before the files, as the API asks of an `access_token` field. */
    fields?: Record<string, string>;
    /** Sent after the files: parameters may come last, a token may not. */
    fieldsAfterFiles?: Record<string, string>;
    token?: string;
  },
): Promise<UploadResult> {
  const body = new FormData();
  for (const [name, value] of Object.entries(form.fields ?? {})) body.append(name, value);
  for (const [field, data, filename] of form.files ?? []) body.append(field, new Blob([new Uint8Array(data)]), filename ?? 'image');
  for (const [name, value] of Object.entries(form.fieldsAfterFiles ?? {})) body.append(name, value);
  const response = await fetch(new URL(path, baseUrl), { method: 'POST', body, headers: form.token ? { 'x-access-token': form.token } : {} });
  const bytes = Buffer.from(await response.arrayBuffer());
  let json: unknown;
  if (response.headers.get('content-type')?.includes('json')) json = JSON.parse(bytes.toString('utf8'));
  return { status: response.status, headers: response.headers, bytes, json };
}
