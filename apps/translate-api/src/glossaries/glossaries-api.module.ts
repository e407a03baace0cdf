import { Module } from '@nestjs/common';
import { GlossariesModule } from '@platform/glossaries';
import { CsvBodyParser } from './csv-body';
import { GlossariesController } from './glossaries.controller';

/** /api/v1/glossaries: glossary upload (JSON or CSV), download, replacement and deletion. */
@Module({
  imports: [GlossariesModule],
  controllers: [GlossariesController],
  providers: [CsvBodyParser],
})
export class GlossariesApiModule {}
