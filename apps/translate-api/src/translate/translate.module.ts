import { Module } from '@nestjs/common';
import { BatchesModule } from '@platform/batches';
import { GlossariesModule } from '@platform/glossaries';
import { TranslateController } from './translate.controller';
import { TranslateService } from './translate.service';

@Module({
  imports: [GlossariesModule, BatchesModule],
  controllers: [TranslateController],
  providers: [TranslateService],
  exports: [TranslateService],
})
export class TranslateModule {}
