import { Module } from '@nestjs/common';
import { KeysController } from './keys.controller';

/** Self-service key management for keys with the `manage` scope. */
@Module({
  controllers: [KeysController],
})
export class KeysModule {}
