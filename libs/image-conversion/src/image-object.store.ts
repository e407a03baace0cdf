import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  NoSuchKey,
  NotFound,
  PutObjectCommand,
  S3Client,
} from '@aws-sdk/client-s3';
import { Inject, Injectable } from '@nestjs/common';
import { S3_BUCKET } from '@platform/storage';
import { createHash, randomUUID } from 'node:crypto';
import type { ConversionParams } from './conversion-params';
import { CONTENT_TYPE, OUTPUT_FORMATS, type OutputFormat } from './image-formats';

/** Converted images never change under their id, so caches may keep them for a year. */
export const IMMUTABLE_CACHE_CONTROL = 'public, max-age=31536000, immutable';

const PENDING_PREFIX = 'pending/';
const REQUEST_TIMEOUT_MS = 30_000;

/** A source kept until the worker has produced one more format of it. */
export interface PendingVariant {
  key: string;
  imageId: string;
  format: OutputFormat;
  lastModified?: Date;
}

/** Converted images (`{id}.{format}`, what the CDN serves) and the sources of variants still to make. */
@Injectable()
export class ImageObjectStore {
  constructor(
    private readonly s3: S3Client,
    @Inject(S3_BUCKET) private readonly bucket: string,
  ) {}

  static key(imageId: string, format: OutputFormat): string {
    return `${imageId}.${format}`;
  }

  /** The stored conversion, or null when there is none yet. */
  async get(imageId: string, format: OutputFormat): Promise<Buffer | null> {
    return (await this.read(ImageObjectStore.key(imageId, format)))?.data ?? null;
  }

  async has(imageId: string, format: OutputFormat): Promise<boolean> {
    try {
      await this.s3.send(new HeadObjectCommand({ Bucket: this.bucket, Key: ImageObjectStore.key(imageId, format) }), options());
      return true;
    } catch (error) {
      if (error instanceof NotFound || error instanceof NoSuchKey) return false;
      throw error;
    }
  }

  async put(imageId: string, format: OutputFormat, data: Buffer): Promise<void> {
    await this.s3.send(
      new PutObjectCommand({
        Bucket: this.bucket,
        Key: ImageObjectStore.key(imageId, format),
        Body: data,
        ContentMD5: contentMd5(data),
        ContentType: CONTENT_TYPE[format],
        CacheControl: IMMUTABLE_CACHE_CONTROL,
      }),
      options(),
    );
  }

  /**
   * Keeps the source for the worker, with the request's parameters as object metadata so the
   * object alone is enough to finish the work. The random last segment keeps the original
   * (which may carry EXIF location) unreachable through a CDN that serves the bucket.
   */
  async putPending(imageId: string, format: OutputFormat, source: Buffer, params: ConversionParams): Promise<PendingVariant> {
    const key = `${PENDING_PREFIX}${ImageObjectStore.key(imageId, format)}/${randomUUID()}`;
    const metadata: Record<string, string> = {};
    if (params.quality !== undefined) metadata.quality = String(params.quality);
    if (params.maxWidth !== undefined) metadata['max-width'] = String(params.maxWidth);
    if (params.maxHeight !== undefined) metadata['max-height'] = String(params.maxHeight);
    await this.s3.send(
      new PutObjectCommand({ Bucket: this.bucket, Key: key, Body: source, ContentMD5: contentMd5(source), ContentType: 'application/octet-stream', Metadata: metadata }),
      options(),
    );
    return { key, imageId, format };
  }

  /** The source and parameters of a pending variant; null when it was finished and removed meanwhile. */
  async readPending(key: string): Promise<{ source: Buffer; params: Omit<ConversionParams, 'format'> } | null> {
    const object = await this.read(key);
    if (!object) return null;
    const { data, metadata } = object;
    return { source: data, params: { quality: numberOf(metadata.quality), maxWidth: numberOf(metadata['max-width']), maxHeight: numberOf(metadata['max-height']) } };
  }

  async deletePending(key: string): Promise<void> {
    await this.s3.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: key }), options());
  }

  /** Pending variants last written before `before`, oldest listing order as S3 returns it. */
  async *pendingBefore(before: Date): AsyncGenerator<PendingVariant> {
    let ContinuationToken: string | undefined;
    do {
      const page = await this.s3.send(new ListObjectsV2Command({ Bucket: this.bucket, Prefix: PENDING_PREFIX, ContinuationToken }), options());
      for (const object of page.Contents ?? []) {
        const pending = parsePendingKey(object.Key ?? '');
        if (pending && object.LastModified && object.LastModified < before) yield { ...pending, lastModified: object.LastModified };
      }
      ContinuationToken = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (ContinuationToken);
  }

  private async read(key: string): Promise<{ data: Buffer; metadata: Record<string, string> } | null> {
    try {
      const object = await this.s3.send(new GetObjectCommand({ Bucket: this.bucket, Key: key }), options());
      return { data: Buffer.from(await object.Body!.transformToByteArray()), metadata: object.Metadata ?? {} };
    } catch (error) {
      if (error instanceof NoSuchKey) return null;
      throw error;
    }
  }
}

/**
 * Sent with every upload: the store checks the body it received against it and refuses a torn
 * one (S3 answers 400 BadDigest) instead of keeping it as the image.
 */
function contentMd5(data: Buffer): string {
  return createHash('md5').update(data).digest('base64');
}

function options() {
  return { abortSignal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) };
}

function numberOf(value: string | undefined): number | undefined {
  return value === undefined ? undefined : Number(value);
}

function parsePendingKey(key: string): Omit<PendingVariant, 'lastModified'> | null {
  const match = /^pending\/([0-9a-f-]{36})\.([a-z]+)\/[0-9a-f-]{36}$/.exec(key);
  const format = match?.[2] as OutputFormat | undefined;
  if (!match || !format || !OUTPUT_FORMATS.includes(format)) return null;
  return { key, imageId: match[1], format };
}
