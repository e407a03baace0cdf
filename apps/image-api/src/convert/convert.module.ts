import { Module } from '@nestjs/common';
import { QueueName } from '@platform/contracts';
import { QueueModule } from '@platform/queue';
import { ConvertController } from './convert.controller';
import { ConvertService } from './convert.service';
import { RequestSlots } from './request-slots.service';

@Module({
  imports: [QueueModule.registerQueue(QueueName.ImageVariants)],
  controllers: [ConvertController],
  providers: [ConvertService, RequestSlots],
})
export class ConvertModule {}
