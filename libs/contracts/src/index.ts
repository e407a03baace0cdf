export * from './error-codes';
export * from './queues';
export * from './service-ports';
export * from './principal';
export * from './languages';
