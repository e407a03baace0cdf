import { Module } from '@nestjs/common';
import { GlossariesModule } from '@platform/glossaries';
import { BatchesApiModule } from '../batches/batches-api.module';
import { TranslateController } from './translate.controller';
import { TranslateService } from './translate.service';

@Module({
  imports: [GlossariesModule, BatchesApiModule],
  controllers: [TranslateController],
  providers: [TranslateService],
  exports: [TranslateService],
})
export class TranslateModule {}
