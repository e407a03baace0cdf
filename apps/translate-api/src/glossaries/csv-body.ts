import { Injectable, OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { RouteConfig } from '@nestjs/platform-fastify';
import { TranslationErrorCode } from '@platform/contracts';
import { ApiError } from '@platform/errors';
import type { FastifyInstance, FastifyRequest } from 'fastify';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Set by `@AcceptsCsv()`. */
    acceptsCsv?: boolean;
  }
}

/** A `text/csv` request body, decoded from UTF-8. A class of its own so it is never mistaken for JSON. */
export class CsvBody {
  constructor(readonly text: string) {}
}

/** Lets a route take `Content-Type: text/csv`; its handler then receives a `CsvBody`. */
export const AcceptsCsv = () => RouteConfig({ acceptsCsv: true });

const unsupported = (message: string) => new ApiError(415, TranslationErrorCode.UnsupportedMediaType, message);

function decode(request: FastifyRequest, body: Buffer): CsvBody {
  if (!request.routeOptions.config.acceptsCsv) throw unsupported('This endpoint does not accept text/csv');
  const charset = /;\s*charset\s*=\s*"?([^";\s]+)/i.exec(request.headers['content-type'] ?? '')?.[1];
  if (charset && !/^utf-?8$/i.test(charset)) throw unsupported(`CSV must be encoded as UTF-8, not ${charset}`);
  try {
    // A fatal decoder refuses bytes that are not UTF-8 instead of turning them into U+FFFD; it drops a BOM.
    return new CsvBody(new TextDecoder('utf-8', { fatal: true }).decode(body));
  } catch {
    throw ApiError.invalidParameter('The CSV is not valid UTF-8 text; save it as "CSV UTF-8"');
  }
}

/**
 * Teaches Fastify to read `text/csv` bodies (within the app's byte cap, like JSON), for the routes
 * marked `@AcceptsCsv()` only; other routes refuse such a body with 415.
 */
@Injectable()
export class CsvBodyParser implements OnModuleInit {
  constructor(private readonly adapterHost: HttpAdapterHost) {}

  onModuleInit() {
    const fastify = this.adapterHost.httpAdapter.getInstance<FastifyInstance>();
    fastify.addContentTypeParser('text/csv', { parseAs: 'buffer' }, (request, body, done) => {
      try {
        done(null, decode(request, body as Buffer));
      } catch (error) {
        done(error as ApiError, undefined);
      }
    });
  }
}
