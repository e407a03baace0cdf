import { Injectable, OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { RouteConfig } from '@nestjs/platform-fastify';
import { TranslationErrorCode } from '@platform/contracts';
import { ApiError } from '@platform/errors';
import type { MemoryFileFormat } from './formats/memory-file';
import { TMX_MEDIA_TYPE } from './memory-download';
import { MAX_IMPORT_BYTES } from './memory-limits';
import type { FastifyInstance, FastifyRequest } from 'fastify';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Set by `@AcceptsMemoryFile()`. */
    acceptsMemoryFile?: boolean;
  }
}

/** Media types of memory files, and the format each one names (undefined: the query or the root element says). */
export const MEMORY_FILE_TYPES: Record<string, MemoryFileFormat | undefined> = {
  [TMX_MEDIA_TYPE]: 'tmx',
  'application/xliff+xml': 'xliff',
  'text/x-gettext-translation': 'po',
  'text/x-po': 'po',
  'application/xml': undefined,
  'text/xml': undefined,
  'application/octet-stream': undefined,
};

/** A memory file as sent: its bytes (decoded by the format's reader) and what its media type says it is. */
export class MemoryFileBody {
  constructor(
    readonly bytes: Uint8Array,
    readonly format: MemoryFileFormat | undefined,
  ) {}
}

/**
 * Lets a route take a memory file of up to MAX_IMPORT_BYTES (the app's body cap is smaller); its
 * handler then receives a `MemoryFileBody`. One RouteConfig: a second one would replace the first.
 */
export const AcceptsMemoryFile = () => RouteConfig({ acceptsMemoryFile: true, bodyLimit: MAX_IMPORT_BYTES });

/**
 * The file a route marked `@AcceptsMemoryFile()` received and its format (`?format=` first, then
 * the media type's): 415 for a body of another type, 422 when neither says the format.
 */
export function memoryFileOf(body: unknown, format: MemoryFileFormat | undefined): { bytes: Uint8Array; format: MemoryFileFormat } {
  if (!(body instanceof MemoryFileBody)) {
    throw new ApiError(415, TranslationErrorCode.UnsupportedMediaType, `Send the file as the body with its media type: ${Object.keys(MEMORY_FILE_TYPES).join(', ')}`);
  }
  const known = format ?? body.format;
  if (!known) throw ApiError.invalidParameter('Say which format the file has: ?format=tmx, ?format=xliff or ?format=po (or send it with its own media type)');
  return { bytes: body.bytes, format: known };
}

/**
 * Teaches Fastify to read memory files as bytes, for the routes marked `@AcceptsMemoryFile()`
 * only; other routes refuse such a body with 415.
 */
@Injectable()
export class MemoryFileBodyParser implements OnModuleInit {
  constructor(private readonly adapterHost: HttpAdapterHost) {}

  onModuleInit() {
    const fastify = this.adapterHost.httpAdapter.getInstance<FastifyInstance>();
    for (const [type, format] of Object.entries(MEMORY_FILE_TYPES)) {
      fastify.addContentTypeParser(type, { parseAs: 'buffer' }, (request: FastifyRequest, body: Buffer, done) => {
        if (request.routeOptions.config.acceptsMemoryFile) return done(null, new MemoryFileBody(body, format));
        done(new ApiError(415, TranslationErrorCode.UnsupportedMediaType, `This endpoint does not accept ${type}`), undefined);
      });
    }
  }
}
