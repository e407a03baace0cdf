import { applyDecorators } from '@nestjs/common';
import { ApiExtraModels, ApiPayloadTooLargeResponse, ApiUnprocessableEntityResponse, ApiUnsupportedMediaTypeResponse, getSchemaPath } from '@nestjs/swagger';
import { ApiError, TranslationErrorDto } from '@platform/errors';
import { GlossaryEntryDto, glossaryFromCsv, glossaryFromJson, type GlossaryDraft } from '@platform/glossaries';
import { AcceptsCsv, CsvBody } from './csv-body';
import { GlossaryInputDto } from './dtos/glossary-input.dto';
import type { GlossaryUploadQueryDto } from './dtos/glossary-query.dto';

/** A glossary sent as JSON, or as CSV with its name and source language in the query. */
export function glossaryDraftOf(body: unknown, { name, source }: GlossaryUploadQueryDto): GlossaryDraft {
  if (body instanceof CsvBody) {
    if (name === undefined || source === undefined) {
      throw ApiError.invalidParameter('A CSV upload names the glossary in the query: ?name=<name>&source=<language code>');
    }
    return glossaryFromCsv(body.text, name, source);
  }
  if (name !== undefined || source !== undefined) {
    throw ApiError.invalidParameter('With a JSON body, name and source belong in the body; the query parameters are for CSV uploads');
  }
  return glossaryFromJson(body);
}

const CSV_EXAMPLE = 'term,de,fr\r\ncloud,Wolke,nuage\r\n"sign in, now","jetzt anmelden",\r\n';

/** The request body (JSON or CSV) and the refusals of the routes that take a whole glossary. */
export const ApiGlossaryUpload = () =>
  applyDecorators(
    AcceptsCsv(),
    ApiExtraModels(GlossaryInputDto, GlossaryEntryDto),
    ApiUnprocessableEntityResponse({
      type: TranslationErrorDto,
      description:
        'unsupported_language: the glossary is invalid (language not among the 24 official EU languages, a target equal to the ' +
        'source, an empty or repeated term, malformed CSV naming the line, ...) or the account already holds 20 glossaries',
    }),
    ApiPayloadTooLargeResponse({ type: TranslationErrorDto, description: 'payload_too_large: more than 5,000 entries, or a body over the byte cap' }),
    ApiUnsupportedMediaTypeResponse({ type: TranslationErrorDto, description: 'unsupported_media_type: neither application/json nor UTF-8 text/csv' }),
  );

/** OpenAPI request body of those routes, for ApiOperation (ApiBody cannot give two media types their own schema). */
export const GLOSSARY_REQUEST_BODY = {
  required: true,
  content: {
    'application/json': { schema: { $ref: getSchemaPath(GlossaryInputDto) } },
    'text/csv': {
      schema: { type: 'string' as const, example: CSV_EXAMPLE },
      description:
        'RFC 4180 CSV in UTF-8 (a BOM is allowed): a header row `term,<language>,...` then one row per term; an empty cell ' +
        'means no translation into that language. Name and source language go in the query (`?name=...&source=en`).',
    },
  },
};
