export * from './plans';
export * from './plan-limits.config';
export * from './access-token.util';
export * from './token.service';
export * from './image-tokens.module';
export * from './token-errors';
