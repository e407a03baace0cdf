import { Module } from '@nestjs/common';
import { AvailablePairs } from './available-pairs.service';
import { LanguagesController } from './languages.controller';

/** GET /api/v1/languages, and the available pairs for the compatible APIs; the engine comes from the global EnginesModule. */
@Module({ controllers: [LanguagesController], providers: [AvailablePairs], exports: [AvailablePairs] })
export class LanguagesModule {}
