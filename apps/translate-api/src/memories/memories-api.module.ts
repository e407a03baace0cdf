import { Module } from '@nestjs/common';
import { MemoryFileBodyParser, TranslationMemoryModule } from '@platform/translation-memory';
import { MemoriesController } from './memories.controller';

/** /api/v1/memories: translation memories, their entries, TMX/XLIFF/PO import, TMX export and suggestions. */
@Module({
  imports: [TranslationMemoryModule],
  controllers: [MemoriesController],
  providers: [MemoryFileBodyParser],
})
export class MemoriesApiModule {}
