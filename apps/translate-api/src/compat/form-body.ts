import { Injectable, OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { RouteConfig } from '@nestjs/platform-fastify';
import { TranslationErrorCode } from '@platform/contracts';
import { ApiError } from '@platform/errors';
import type { FastifyInstance, FastifyRequest } from 'fastify';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Set by `@AcceptsForm()`. */
    acceptsForm?: boolean;
  }
}

/** Lets a route take `application/x-www-form-urlencoded`, as DeepL's and LibreTranslate's clients send it. */
export const AcceptsForm = () => RouteConfig({ acceptsForm: true });

const FORM = 'application/x-www-form-urlencoded';

const decodeComponent = (text: string) => {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    throw new ApiError(400, 'bad_request', 'The form body is not valid: a percent-encoded sequence is malformed');
  }
};

/**
 * A form body as an object: a field sent once is a string, a field repeated (DeepL's `text`) an
 * array in the order sent. Strict about percent escapes, which URLSearchParams would pass through.
 */
export function parseForm(body: string): Record<string, string | string[]> {
  const fields: Record<string, string | string[]> = Object.create(null);
  for (const pair of body.split('&')) {
    if (!pair) continue;
    const at = pair.indexOf('=');
    const name = decodeComponent(at < 0 ? pair : pair.slice(0, at));
    const value = at < 0 ? '' : decodeComponent(pair.slice(at + 1));
    const earlier = fields[name];
    fields[name] = earlier === undefined ? value : [...(Array.isArray(earlier) ? earlier : [earlier]), value];
  }
  return { ...fields };
}

function parse(request: FastifyRequest, body: string): Record<string, string | string[]> {
  if (!request.routeOptions.config.acceptsForm) throw new ApiError(415, TranslationErrorCode.UnsupportedMediaType, `This endpoint does not accept ${FORM}`);
  return parseForm(body);
}

/** Teaches Fastify to read form bodies (within the app's byte cap) for the routes marked `@AcceptsForm()` only. */
@Injectable()
export class FormBodyParser implements OnModuleInit {
  constructor(private readonly adapterHost: HttpAdapterHost) {}

  onModuleInit() {
    const fastify = this.adapterHost.httpAdapter.getInstance<FastifyInstance>();
    fastify.addContentTypeParser(FORM, { parseAs: 'string' }, (request, body, done) => {
      try {
        done(null, parse(request, body as string));
      } catch (error) {
        done(error as ApiError, undefined);
      }
    });
  }
}
