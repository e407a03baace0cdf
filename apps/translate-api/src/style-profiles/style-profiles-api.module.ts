import { Module } from '@nestjs/common';
import { StyleProfilesModule } from '@platform/style-profiles';
import { StyleProfilesController } from './style-profiles.controller';

/** /api/v1/style-profiles: creation, listing, replacement and deletion of style profiles. */
@Module({
  imports: [StyleProfilesModule],
  controllers: [StyleProfilesController],
})
export class StyleProfilesApiModule {}
