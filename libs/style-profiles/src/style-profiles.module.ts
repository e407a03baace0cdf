import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { GlossariesModule } from '@platform/glossaries';
import { TranslationMemoryModule } from '@platform/translation-memory';
import { StyleProfile } from './style-profile.entity';
import { StyleProfileService } from './style-profile.service';

/** Style profile storage for the HTTP API, the console and batches. Needs the translation DatabaseModule. */
@Module({
  imports: [TypeOrmModule.forFeature([StyleProfile]), GlossariesModule, TranslationMemoryModule],
  providers: [StyleProfileService],
  exports: [StyleProfileService],
})
export class StyleProfilesModule {}
