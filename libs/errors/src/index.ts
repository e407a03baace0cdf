export * from './api-error';
export * from './error-envelope';
export * from './normalize-error';
export * from './dependency-outage';
export * from './envelope-exception.filter';
export * from './validation-exception.factory';
export * from './error-response.dto';
