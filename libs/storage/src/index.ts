export * from './storage.config';
export * from './storage.module';
