export * from './database.module';
export * from './data-source-options';
export * from './migration-runner';
export * from './domains';
export * from './prepared-statement';
export * from './deadline-client';
export * from './last-use-recorder';
