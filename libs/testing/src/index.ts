export * from './test-env';
export * from './poll-until';
export * from './http-client';
export * from './translation-fixtures';
export * from './service-health.suite';
export * from './engine-stand-ins';
export * from './api-error-expectations';
export * from './processes';
