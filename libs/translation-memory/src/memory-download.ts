import { StreamableFile } from '@nestjs/common';
import { attachment } from '@platform/service-kit';
import { Readable } from 'node:stream';
import type { Memory } from './memory.entity';

export const TMX_MEDIA_TYPE = 'application/x-tmx+xml';

/** A memory's TMX export as a download, streamed as `MemoryService.export` writes it. */
export function tmxDownload({ memory, tmx }: { memory: Memory; tmx: AsyncGenerator<string> }): StreamableFile {
  return new StreamableFile(Readable.from(tmx), { type: `${TMX_MEDIA_TYPE}; charset=utf-8`, disposition: attachment(`${memory.name}.tmx`) });
}
