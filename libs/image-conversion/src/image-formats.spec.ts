import type { AvailableFormatInfo } from 'sharp';
import { describe, expect, it } from 'vitest';
import { decodableInputFormats } from './image-formats';

const loader = (buffer: boolean, fileSuffix: string[]): AvailableFormatInfo => ({
  id: 'loader',
  input: { file: buffer, buffer, stream: buffer, fileSuffix },
  output: { file: false, buffer: false, stream: false },
});

describe('decodableInputFormats', () => {
  it('lists what the installed sharp decodes, in a fixed order and never SVG', () => {
    const formats = decodableInputFormats();
    expect(formats).toEqual(expect.arrayContaining(['jpeg', 'png', 'webp', 'avif', 'gif', 'tiff']));
    expect(formats).not.toContain('svg');
    expect(formats.indexOf('jpeg')).toBeLessThan(formats.indexOf('png'));
  });

  it('tells AVIF from HEIF by the suffixes of their shared loader', () => {
    expect(decodableInputFormats({ heif: loader(true, ['.avif']) })).toEqual(['avif']);
    expect(decodableInputFormats({ heif: loader(true, ['.heic', '.heif', '.avif']) })).toEqual(['avif', 'heif']);
  });

  it('leaves out loaders that cannot read from memory', () => {
    expect(decodableInputFormats({ jpeg: loader(false, ['.jpg', '.jpeg']), png: loader(true, ['.png']) })).toEqual(['png']);
  });
});
