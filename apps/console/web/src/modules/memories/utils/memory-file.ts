export const MEMORY_FILE_FORMATS = ['tmx', 'xliff', 'po'] as const;
export type MemoryFileFormat = (typeof MEMORY_FILE_FORMATS)[number];

/** The media type each format is sent with: the one the API reads it by. */
export const MEDIA_TYPES: Record<MemoryFileFormat, string> = {
  tmx: 'application/x-tmx+xml',
  xliff: 'application/xliff+xml',
  po: 'text/x-gettext-translation',
};

const EXTENSIONS: Record<string, MemoryFileFormat> = { tmx: 'tmx', xlf: 'xliff', xliff: 'xliff', xlf2: 'xliff', po: 'po', pot: 'po' };

/** The format a file's name says it has (`ui.de.po`, `Export.TMX`), if any. */
export function formatOfName(name: string): MemoryFileFormat | undefined {
  const extension = /\.([^.]+)$/.exec(name)?.[1].toLowerCase();
  return extension === undefined ? undefined : EXTENSIONS[extension];
}

/** What keeps a chosen file from being sent, before it is: none, too large, or of a format neither its name nor the form says. */
export type FileProblem = 'missing' | 'too-large' | 'format-unknown';

export function fileProblem(file: File | undefined, chosenFormat: MemoryFileFormat | undefined, maxBytes: number): FileProblem | undefined {
  if (!file) return 'missing';
  if (file.size > maxBytes) return 'too-large';
  if (!chosenFormat && !formatOfName(file.name)) return 'format-unknown';
  return undefined;
}
