import { Body, Controller, HttpCode, Post, Res } from '@nestjs/common';
import {
  ApiAcceptedResponse,
  ApiOkResponse,
  ApiOperation,
  ApiPayloadTooLargeResponse,
  ApiPaymentRequiredResponse,
  ApiServiceUnavailableResponse,
  ApiTags,
  ApiUnprocessableEntityResponse,
} from '@nestjs/swagger';
import { ApiKeyAuth, CurrentApiKey } from '@platform/auth';
import type { ApiKeyPrincipal } from '@platform/contracts';
import { TranslationErrorDto } from '@platform/errors';
import { ApiRateLimited, RATE_LIMIT_HEADER_DOCS } from '@platform/quota';
import type { FastifyReply } from 'fastify';
import { BatchAcceptedDto } from '@platform/batches';
import { Idempotent } from '../idempotency/idempotent.decorator';
import { TranslateRequestDto } from './dtos/translate-request.dto';
import { TranslateResponseDto } from './dtos/translate-response.dto';
import { ENGINE_HEADER, sendEngines } from './engine-header';
import { TranslateService } from './translate.service';

@ApiTags('translate')
@ApiKeyAuth()
@Controller('api/v1/translate')
export class TranslateController {
  constructor(private readonly translator: TranslateService) {}

  @Post()
  @HttpCode(200)
  @Idempotent()
  @ApiOperation({
    summary: 'Translate texts (tiers basic and pro); tier review becomes a batch job (202)',
    description:
      'Formats: `text`; `html` (text nodes only; tags, attributes, comments, script/style/code/pre and translate="no" kept byte for byte); ' +
      '`json` (each text a JSON document; only string values translated). Variables such as {name}, {{name}}, %s, %1$s, ${x} and ICU ' +
      'arguments pass through untouched and are not counted. With a glossary, tiers pro and review enforce every term exactly; basic uses it as a hint. ' +
      "Each sentence is first looked up in your translation memories (exact match, variables and markup masked), then, for a whole short text or JSON value, in the catalog; " +
      'the engine translates the rest (`memory: false` skips memories; `origins` says per text where its translation came from). ' +
      'With `missing: "keep"` a pair without an engine is translated as far as memories go, the rest returned as sent and listed in `untranslated`. ' +
      'Tier review is asynchronous: it answers 202 with a batch job, created exactly as POST /api/v1/batches would; a sample of the texts is ' +
      'checked by native-speaker reviewers before the job is done.',
  })
  @ApiOkResponse({
    type: TranslateResponseDto,
    headers: {
      ...RATE_LIMIT_HEADER_DOCS,
      [ENGINE_HEADER]: {
        description:
          'What made the translations, comma-separated in order of first use: `memory` (your memories), `catalog`, and the engines (apertium, deepl, libretranslate)',
        schema: { type: 'string', example: 'memory,apertium' },
      },
    },
  })
  @ApiAcceptedResponse({ type: BatchAcceptedDto, description: 'Tier review: the batch job that holds the texts until review', headers: RATE_LIMIT_HEADER_DOCS })
  @ApiPaymentRequiredResponse({ type: TranslationErrorDto, description: "quota_exceeded: the words would pass a monthly limit, named in the message (the key's own limit, the account's monthly ceiling, or the account's sandbox quota); nothing translated or charged" })
  @ApiPayloadTooLargeResponse({ type: TranslationErrorDto, description: 'payload_too_large: more than 50 texts or 30,000 characters' })
  @ApiUnprocessableEntityResponse({ type: TranslationErrorDto, description: 'unsupported_language: language pair unavailable or a parameter invalid (details in message)' })
  @ApiServiceUnavailableResponse({ type: TranslationErrorDto, description: 'service_unavailable: every engine able to do the pair failed; nothing was charged' })
  @ApiRateLimited(TranslationErrorDto)
  async translate(
    @CurrentApiKey() key: ApiKeyPrincipal,
    @Body() body: TranslateRequestDto,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<TranslateResponseDto | BatchAcceptedDto> {
    const { body: answer, engines } = await this.translator.translate(key, body);
    if ('job' in answer) reply.status(202);
    sendEngines(reply, engines);
    return answer;
  }
}
