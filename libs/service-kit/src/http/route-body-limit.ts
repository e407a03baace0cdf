import { RouteConfig } from '@nestjs/platform-fastify';
import type { FastifyInstance } from 'fastify';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Set by `@BodyLimit()`. */
    bodyLimit?: number;
  }
}

/** Lets one route take a larger body than the app's cap (an uploaded file), and no other. */
export const BodyLimit = (bytes: number) => RouteConfig({ bodyLimit: bytes });

/** Applies `@BodyLimit` when routes are registered; bootstrapHttpApp calls it before the app initialises. */
export function applyRouteBodyLimits(fastify: FastifyInstance): void {
  fastify.addHook('onRoute', (route) => {
    const bytes = route.config?.bodyLimit;
    if (bytes) route.bodyLimit = bytes;
  });
}
