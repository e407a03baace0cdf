import { DynamicModule, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { OutboxMessage } from './outbox-message.entity';
import { OutboxMonitor } from './outbox-monitor.service';
import { OUTBOX_RELAY_OPTIONS, OutboxRelay, type OutboxRelayOptions } from './outbox-relay.service';
import { OutboxService } from './outbox.service';

/**
 * `OutboxModule` lets a feature write jobs in its transactions (needs the translation
 * DatabaseModule) and exports what waits in the outbox as metrics; `forRelay` also moves them to
 * Redis, in the process that consumes the queues.
 */
@Module({
  imports: [TypeOrmModule.forFeature([OutboxMessage])],
  providers: [OutboxService, OutboxMonitor],
  exports: [OutboxService],
})
export class OutboxModule {
  static forRelay(queues: string[], options: Omit<OutboxRelayOptions, 'queues'> = {}): DynamicModule {
    return {
      module: OutboxModule,
      providers: [{ provide: OUTBOX_RELAY_OPTIONS, useValue: { ...options, queues } }, OutboxRelay],
      exports: [OutboxRelay],
    };
  }
}
