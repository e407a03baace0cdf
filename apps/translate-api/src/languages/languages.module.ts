import { Module } from '@nestjs/common';
import { LanguagesController } from './languages.controller';

/** GET /api/v1/languages; the engine comes from the global EnginesModule. */
@Module({ controllers: [LanguagesController] })
export class LanguagesModule {}
