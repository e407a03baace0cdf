export interface HttpResult<T = any> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

/** A small fetch wrapper for tests: JSON in, parsed JSON (or text) out, never throws on status. */
export async function http<T = any>(
  baseUrl: string,
  method: string,
  path: string,
  options: { json?: unknown; body?: string | Uint8Array | FormData; headers?: Record<string, string>; token?: string; signal?: AbortSignal; redirect?: 'follow' | 'manual' | 'error' } = {},
): Promise<HttpResult<T>> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  let body = options.body;
  if (options.json !== undefined) {
    headers['content-type'] ??= 'application/json';
    body = JSON.stringify(options.json);
  }
  const response = await fetch(new URL(path, baseUrl), { method, headers, body, signal: options.signal, redirect: options.redirect });
  const text = await response.text();
  let parsed: unknown = text;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    // not JSON: keep the text
  }
  return { status: response.status, headers: response.headers, body: parsed as T, text };
}
