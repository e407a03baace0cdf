/** The other vendors' APIs translate-api can answer (COMPAT_APIS). */
export const COMPAT_APIS = ['deepl', 'libretranslate'] as const;
export type CompatApi = (typeof COMPAT_APIS)[number];

/** DeepL's API lives under versioned prefixes that /api/v1 never uses. */
export const isDeepLPath = (path: string) => path.startsWith('/v2/') || path.startsWith('/v3/');

const LIBRETRANSLATE_PATHS = new Set(['/translate', '/languages', '/detect', '/frontend/settings']);
export const isLibreTranslatePath = (path: string) => LIBRETRANSLATE_PATHS.has(path.replace(/\/+$/, ''));

export const COMPAT_PATHS: Record<CompatApi, (path: string) => boolean> = { deepl: isDeepLPath, libretranslate: isLibreTranslatePath };
