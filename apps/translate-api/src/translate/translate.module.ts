import { Module } from '@nestjs/common';
import { GlossariesModule } from '@platform/glossaries';
import { StyleProfilesModule } from '@platform/style-profiles';
import { TranslationMemoryModule } from '@platform/translation-memory';
import { BatchesApiModule } from '../batches/batches-api.module';
import { TranslateController } from './translate.controller';
import { TranslateService } from './translate.service';

@Module({
  imports: [GlossariesModule, BatchesApiModule, TranslationMemoryModule, StyleProfilesModule],
  controllers: [TranslateController],
  providers: [TranslateService],
  exports: [TranslateService],
})
export class TranslateModule {}
