import createClient, { type Client } from 'openapi-fetch';
import type { components, paths } from './generated/image-api';

export type ImagePaths = paths;
export type ImageSchemas = components['schemas'];
export type ImageClient = Client<paths>;

export interface ImageClientOptions {
  /** Where image-api listens, e.g. `http://127.0.0.1:3100`. */
  baseUrl: string;
  /** `img_...`, sent as X-Access-Token; routes without a token (/info, /health) ignore it. */
  accessToken?: string;
  fetch?: typeof globalThis.fetch;
}

/**
 * A client of the image API typed by its OpenAPI document. The conversion routes take
 * multipart forms: pass the fields as `body` with a `bodySerializer` that builds a FormData,
 * and read `/convert`'s image with `parseAs: 'arrayBuffer'` (see the README).
 */
export function createImageClient(options: ImageClientOptions): ImageClient {
  const headers = options.accessToken ? { 'x-access-token': options.accessToken } : undefined;
  return createClient<paths>({ baseUrl: options.baseUrl, headers, fetch: options.fetch });
}

/**
 * The `bodySerializer` of the multipart routes: each field in the order given (a form's
 * `access_token` must come before its files), Blobs and Files as file parts (a File keeps its
 * name), arrays as one part per item, anything else as text.
 */
export function multipartForm(body: object): FormData {
  const form = new FormData();
  for (const [name, value] of Object.entries(body)) {
    for (const item of Array.isArray(value) ? value : [value]) {
      if (item === undefined || item === null) continue;
      if (item instanceof Blob) form.append(name, item);
      else form.append(name, String(item));
    }
  }
  return form;
}
