import type { INestApplication } from '@nestjs/common';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { http } from './http-client';
import { testAppEnv } from './test-env';

const API_CLIENT = fileURLToPath(new URL('../../api-client/', import.meta.url));

/** Set by `nx run api-client:generate`: the suites write what they would otherwise compare. */
const UPDATE = process.env.UPDATE_API_CLIENT === '1';

export interface ApiClientContractSuite {
  /** The app, also the name of its files in libs/api-client (openapi/<name>.json, src/generated/<name>.ts). */
  service: 'translate-api' | 'image-api' | 'console';
  start: (env: NodeJS.ProcessEnv) => Promise<INestApplication>;
  /** Where the document and its types are kept instead, and the command that writes them. */
  files?: { document: string; types: string; generate: string };
}

/** openapi-typescript's output for a document, as committed in libs/api-client. */
export async function openApiTypes(document: object): Promise<string> {
  // Loaded here, not with this library: it brings the TypeScript compiler, which other tests do without.
  const { default: openapiTS, astToString, COMMENT_HEADER } = await import('openapi-typescript');
  const { factory } = (await import('typescript')).default;
  const ast = await openapiTS(document as Parameters<typeof openapiTS>[0], {
    // A field with a default may be left out of a request: only `required` makes it required.
    defaultNonNullable: false,
    // Uploads and image answers are bytes: a Blob (or File) to send, not a string.
    transform: (schema) => (schema.format === 'binary' ? factory.createTypeReferenceNode('Blob') : undefined),
  });
  return COMMENT_HEADER + astToString(ast);
}

function compareOrWrite(file: string, actual: string, generate: string) {
  if (UPDATE) {
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, actual);
    return;
  }
  expect(existsSync(file), `${file} is missing: run ${generate}`).toBe(true);
  expect(actual, `${path.relative(API_CLIENT, file)} differs from what the app serves: run ${generate} and commit the result`).toBe(
    readFileSync(file, 'utf8'),
  );
}

/**
 * The typed client's contract: libs/api-client holds the app's OpenAPI document and the types
 * openapi-typescript makes of it. A change of the app's interface fails here until both are
 * generated again, and then fails the typecheck of every caller the change breaks.
 */
export function describeApiClientContract(suite: ApiClientContractSuite): void {
  const files = suite.files ?? {
    document: path.join(API_CLIENT, 'openapi', `${suite.service}.json`),
    types: path.join(API_CLIENT, 'src/generated', `${suite.service}.ts`),
    generate: 'npx nx run api-client:generate',
  };
  describe(`${suite.service} contract of its typed client`, () => {
    let app: INestApplication;
    let document: object;

    beforeAll(async () => {
      app = await suite.start(testAppEnv());
      document = (await http(await app.getUrl(), 'GET', '/openapi.json')).body;
    });
    afterAll(() => app.close());

    it('keeps the OpenAPI document the app serves', () => {
      compareOrWrite(files.document, `${JSON.stringify(document, null, 2)}\n`, files.generate);
    });

    it('keeps the TypeScript types generated from that document', async () => {
      compareOrWrite(files.types, await openApiTypes(document), files.generate);
    });
  });
}
