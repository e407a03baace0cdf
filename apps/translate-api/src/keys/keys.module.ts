import { Module } from '@nestjs/common';
import { AuthModule } from '@platform/auth';
import { KeysController } from './keys.controller';

/** Self-service key management for keys with the `manage` scope. */
@Module({
  imports: [AuthModule],
  controllers: [KeysController],
})
export class KeysModule {}
