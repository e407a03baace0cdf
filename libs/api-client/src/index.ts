export * from './translation.client';
export * from './image.client';
