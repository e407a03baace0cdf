export * from './outbox-message.entity';
export * from './outbox.service';
export * from './outbox-relay.service';
export * from './outbox.module';
