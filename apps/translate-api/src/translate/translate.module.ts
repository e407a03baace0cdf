import { Module } from '@nestjs/common';
import { GlossariesModule } from '@platform/glossaries';
import { TranslateController } from './translate.controller';
import { TranslateService } from './translate.service';

@Module({
  imports: [GlossariesModule],
  controllers: [TranslateController],
  providers: [TranslateService],
})
export class TranslateModule {}
