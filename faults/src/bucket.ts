import { ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import sharp from 'sharp';
import { expect } from 'vitest';
import { stack } from './stack.control';

/** The bucket as its owner sees it (s3rver takes any credentials), to list what is stored. */
async function storedKeys(): Promise<string[]> {
  const { infra } = await stack.state();
  const s3 = new S3Client({ endpoint: infra.s3Endpoint, region: 'us-east-1', forcePathStyle: true, credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' } });
  const keys: string[] = [];
  let token: string | undefined;
  try {
    do {
      const page = await s3.send(new ListObjectsV2Command({ Bucket: infra.bucket, ContinuationToken: token }));
      keys.push(...(page.Contents ?? []).map((object) => object.Key!));
      token = page.NextContinuationToken;
    } while (token);
  } finally {
    s3.destroy();
  }
  return keys;
}

/** An anonymous GET, as anyone on the internet pointed at the bucket would try. */
export async function publicRead(key: string) {
  const { infra } = await stack.state();
  const res = await fetch(`${infra.cdnUrl}/${key}`);
  return { status: res.status, bytes: Buffer.from(await res.arrayBuffer()) };
}

/** Whatever is stored: outputs are complete images anyone can read, originals are readable by no one. */
export async function expectOnlyWholeOutputsPublic(): Promise<void> {
  for (const key of await storedKeys()) {
    const read = await publicRead(key);
    if (/^[0-9a-f-]{36}\.(webp|avif)$/.test(key)) {
      expect(read.status, key).toBe(200);
      const decoded = await sharp(read.bytes).raw().toBuffer({ resolveWithObject: true }).catch((error: Error) => error);
      expect(decoded, `${key} decodes completely`).not.toBeInstanceOf(Error);
    } else {
      expect(read.status, `${key} is not an output image and must not be public`).not.toBe(200);
    }
  }
}
