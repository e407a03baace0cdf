import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Real localisation files and templates of public projects, beside the repository (third-party
 * data under their own licences): tests read them where they are and never copy them in.
 * CORPUS_DIR points elsewhere when the checkout is laid out differently.
 */
export const CORPUS_DIR = process.env.CORPUS_DIR ?? fileURLToPath(new URL('../../../../shared/corpus/', import.meta.url));

/** A corpus file's text, by its path inside the corpus (`locales/lemmy/backend/en.json`). */
export function corpusText(path: string): string {
  return readFileSync(join(CORPUS_DIR, path), 'utf8');
}
