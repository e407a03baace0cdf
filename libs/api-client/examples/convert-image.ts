// Converts an image file to WebP at most 800 pixels wide and saves it beside the original.
//   IMAGE_TOKEN=img_... IMAGE_API=http://127.0.0.1:3100
import { createImageClient, multipartForm } from '@platform/api-client';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';

const images = createImageClient({ baseUrl: process.env.IMAGE_API ?? 'http://127.0.0.1:3100', accessToken: process.env.IMAGE_TOKEN });

export async function convertToWebp(file: string): Promise<string> {
  const photo = new File([await readFile(file)], path.basename(file));
  const { data, error, response } = await images.POST('/convert', { body: { format: 'webp' as const, max_width: 800, file: photo }, bodySerializer: multipartForm, parseAs: 'arrayBuffer' });
  if (error) throw new Error(`${response.status}: ${error.error_message}`);
  const output = file.replace(/\.[^.]+$/, '') + '.webp';
  await writeFile(output, Buffer.from(data));
  console.log(`${response.headers.get('x-savings')} smaller; CDN: ${response.headers.get('x-cdn-url-webp')}`);
  return output;
}
