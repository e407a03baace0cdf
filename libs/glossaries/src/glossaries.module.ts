import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { Glossary } from './glossary.entity';
import { GlossaryService } from './glossary.service';

/** Glossary storage for the HTTP API and the batch worker. Needs the translation DatabaseModule. */
@Module({
  imports: [TypeOrmModule.forFeature([Glossary])],
  providers: [GlossaryService],
  exports: [GlossaryService],
})
export class GlossariesModule {}
