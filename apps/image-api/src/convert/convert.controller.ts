import { Controller, HttpCode, Post, Req, Res } from '@nestjs/common';
import {
  ApiBody,
  ApiConsumes,
  ApiExtraModels,
  ApiOkResponse,
  ApiOperation,
  ApiPayloadTooLargeResponse,
  ApiProduces,
  ApiResponse,
  ApiTags,
  getSchemaPath,
} from '@nestjs/swagger';
import { ApiError, ImageErrorDto } from '@platform/errors';
import { CONTENT_TYPE, MAX_FILES_PER_BATCH } from '@platform/image-conversion';
import { type TokenPrincipal, TokenErrors, TokenService } from '@platform/image-tokens';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { LimitReachedErrorDto } from '../access-token/dtos/limit-reached-error.dto';
import { AccessTokenAuth } from '../access-token/access-token-auth.decorator';
import { AccessTokenPrincipal, requireConvertibleToken } from '../access-token/access-token.guard';
import { ImageApiConfig } from '../config/image-api.config';
import { ConvertService } from './convert.service';
import { BatchResultDto } from './dtos/batch-result.dto';
import { conversionParams, ConvertParamsDto, parseConvertFields } from './dtos/convert-params.dto';
import { RequestSlots, type ReleaseSlot } from './request-slots.service';
import { readUpload, type Upload, type UploadLimits, withUploadDirectory } from './upload.reader';

/** A conversion form: its files, and the text fields ConvertParamsDto describes and validates. */
const formBody = (fileField: string, file: Record<string, unknown>) => ({
  schema: { allOf: [{ $ref: getSchemaPath(ConvertParamsDto) }, { type: 'object', required: [fileField], properties: { [fileField]: file } }] },
});

const missingFile = (field: string) => ApiError.invalidParameter(`No image received; send it as the form part "${field}"`);

/** Only a form field that came before the files can admit them: the files are not read without a token. */
const tokenAfterFiles = () =>
  TokenErrors.invalidToken('The access token must come before the files: send the access_token field first, or send the token as X-Access-Token');

const header = (description: string, example: string) => ({ description, schema: { type: 'string', example } });

@ApiTags('convert')
@ApiExtraModels(ConvertParamsDto)
@AccessTokenAuth()
@ApiResponse({ status: 402, type: LimitReachedErrorDto, description: 'The monthly conversion limit is reached' })
@ApiPayloadTooLargeResponse({ type: ImageErrorDto, description: 'A file over the size cap, or too many files' })
@ApiResponse({ status: 415, type: ImageErrorDto, description: 'Not multipart, or a file that is not a decodable raster image' })
@ApiResponse({ status: 422, type: ImageErrorDto, description: 'A bad parameter, an empty file, or an image over the pixel cap' })
@ApiResponse({
  status: 429,
  type: ImageErrorDto,
  description: 'The token already has its limit of conversion requests in progress, or the service is busy; try again after Retry-After seconds',
  headers: { 'Retry-After': { description: 'Seconds to wait', schema: { type: 'integer', example: 2 } } },
})
@Controller('convert')
export class ConvertController {
  constructor(
    private readonly converter: ConvertService,
    private readonly tokens: TokenService,
    private readonly config: ImageApiConfig,
    private readonly slots: RequestSlots,
  ) {}

  @Post()
  @HttpCode(200)
  @ApiOperation({ summary: 'Converts one image to WebP or AVIF and stores both formats under one id' })
  @ApiConsumes('multipart/form-data')
  @ApiBody(formBody('file', { type: 'string', format: 'binary' }))
  @ApiProduces(...Object.values(CONTENT_TYPE))
  @ApiOkResponse({
    description: 'The converted image',
    content: Object.fromEntries(Object.values(CONTENT_TYPE).map((type) => [type, { schema: { type: 'string', format: 'binary' } }])),
    headers: {
      'X-Original-Size': header('Bytes of the input', '482113'),
      'X-Converted-Size': header('Bytes of the output', '61270'),
      'X-Savings': header('Percent saved, rounded; negative when the output is larger', '87%'),
      'X-Processing-Time': header('Time spent on the conversion', '143ms'),
      'X-CDN-Image-ID': header('UUID of the stored image; the same input and parameters give the same id', '0b6a3c36-4d1e-5f0a-9c47-1f0e2d3c4b5a'),
      'X-CDN-URL-WebP': header('CDN address of the WebP version', 'https://cdn.example.com/0b6a3c36-4d1e-5f0a-9c47-1f0e2d3c4b5a.webp'),
      'X-CDN-URL-AVIF': header('CDN address of the AVIF version; produced within seconds when WebP was asked for', 'https://cdn.example.com/0b6a3c36-4d1e-5f0a-9c47-1f0e2d3c4b5a.avif'),
    },
  })
  async convert(@Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply, @AccessTokenPrincipal() admitted?: TokenPrincipal): Promise<Buffer> {
    return this.receive(request, admitted, { fileFields: ['file'], maxFiles: 1 }, async (upload, principal) => {
      const params = conversionParams(parseConvertFields(upload.fields));
      const [file] = upload.files;
      if (!file) throw missingFile('file');
      const result = await this.converter.convert(principal, file.path, params);
      reply.headers({
        'content-type': CONTENT_TYPE[result.format],
        'x-original-size': String(result.originalSize),
        'x-converted-size': String(result.convertedSize),
        'x-savings': `${result.savings}%`,
        'x-processing-time': `${result.processingMs}ms`,
        'x-cdn-image-id': result.imageId,
        'x-cdn-url-webp': result.cdnUrls.webp,
        'x-cdn-url-avif': result.cdnUrls.avif,
      });
      return result.data;
    });
  }

  @Post('batch')
  @HttpCode(200)
  @ApiOperation({ summary: `Converts up to ${MAX_FILES_PER_BATCH} images; each file succeeds or fails on its own` })
  @ApiConsumes('multipart/form-data')
  @ApiBody(formBody('files', { type: 'array', maxItems: MAX_FILES_PER_BATCH, items: { type: 'string', format: 'binary' } }))
  @ApiOkResponse({ type: BatchResultDto })
  async convertBatch(@Req() request: FastifyRequest, @AccessTokenPrincipal() admitted?: TokenPrincipal): Promise<BatchResultDto> {
    return this.receive(request, admitted, { fileFields: ['files', 'files[]'], maxFiles: MAX_FILES_PER_BATCH }, async (upload, principal) => {
      const params = conversionParams(parseConvertFields(upload.fields));
      if (upload.files.length === 0) throw missingFile('files');
      return this.converter.convertBatch(principal, upload.files, params);
    });
  }

  /**
   * Admits and reads a conversion form, then hands it to `convert`. Nothing of the body is read
   * before the token is settled: the header one was checked by the guard, and a form's
   * `access_token` must come before the first file. The request holds a slot of this process
   * and one of its token until it is answered; its files live in a temp directory until then.
   */
  private async receive<T>(
    request: FastifyRequest,
    admitted: TokenPrincipal | undefined,
    limits: Omit<UploadLimits, 'maxFileBytes'>,
    convert: (upload: Upload, principal: TokenPrincipal) => Promise<T>,
  ): Promise<T> {
    const held: ReleaseSlot[] = [];
    let principal = admitted;
    try {
      held.push(this.slots.takeProcessSlot());
      if (principal) held.push(await this.slots.takeTokenSlot(principal.subscriptionId));
      return await withUploadDirectory(async (directory) => {
        const upload = await readUpload(request, directory, { ...limits, maxFileBytes: this.config.MAX_FILE_BYTES }, async (fields) => {
          if (principal) return;
          if (fields.access_token === undefined) throw tokenAfterFiles();
          principal = await requireConvertibleToken(this.tokens, request, fields.access_token);
          held.push(await this.slots.takeTokenSlot(principal.subscriptionId));
        });
        // A form without files may carry its token anywhere; it is still checked first.
        principal ??= await requireConvertibleToken(this.tokens, request, upload.fields.access_token);
        return convert(upload, principal);
      });
    } finally {
      for (const release of held) release();
    }
  }
}
