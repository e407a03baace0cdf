import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { CATALOG_LOOKUP } from './catalog-lookup';
import { CatalogEntriesLookup } from './catalog/catalog-entries.lookup';
import { MemoryEntry } from './memory-entry.entity';
import { MemoryEntryRepository } from './memory-entry.repository';
import { Memory } from './memory.entity';
import { MemoryRepository } from './memory.repository';
import { MemoryService } from './memory.service';
import { TranslationMemory } from './translation-memory.service';

/**
 * Translation memories for the HTTP API, review and the pipeline. Needs the translation
 * DatabaseModule. Lookups consult the catalog memory (translation.catalog_entries, built by
 * `catalog:build`) through CATALOG_LOOKUP.
 */
@Module({
  imports: [TypeOrmModule.forFeature([Memory, MemoryEntry])],
  providers: [MemoryRepository, MemoryEntryRepository, MemoryService, TranslationMemory, { provide: CATALOG_LOOKUP, useClass: CatalogEntriesLookup }],
  exports: [MemoryService, TranslationMemory],
})
export class TranslationMemoryModule {}
