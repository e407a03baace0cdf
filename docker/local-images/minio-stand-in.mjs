#!/usr/bin/env node
// The `minio` and `mc` commands docker/compose.yml runs, answered by the project's local S3 server
// (tools/stack/local-s3.mjs: s3rver with the bucket policy's access rules built in), for machines
// that cannot pull MinIO's images. Installed as /usr/local/bin/minio and /usr/local/bin/mc:
//   minio server DIR                          S3 on :9000, keys MINIO_ROOT_USER / MINIO_ROOT_PASSWORD
//   mc ready ALIAS                            exit 0 once the server at MC_HOST_<ALIAS> answers
//   mc mb --ignore-existing ALIAS/BUCKET      creates the bucket, with the CORS rule for CDN reads
//   mc anonymous set-json FILE ALIAS/BUCKET   checks FILE is the policy the server enforces anyway
// Like s3rver, the stand-in checks that a request names a known access key, not its signature.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { createLocalS3, PUBLIC_READ_CORS } from './local-s3.mjs';

const command = path.basename(process.argv[1]);
const args = process.argv.slice(2);

function fail(message) {
  console.error(`${command}: ${message}`);
  process.exit(1);
}

async function server() {
  const [subcommand, directory = '/data'] = args;
  if (subcommand !== 'server') fail(`usage: minio server DIR (got ${args.join(' ')})`);
  const { MINIO_ROOT_USER, MINIO_ROOT_PASSWORD } = process.env;
  if (!MINIO_ROOT_USER || !MINIO_ROOT_PASSWORD) fail('MINIO_ROOT_USER and MINIO_ROOT_PASSWORD must be set');
  const { DUMMY_ACCOUNT } = createRequire(import.meta.url)('s3rver/lib/models/account.js');
  DUMMY_ACCOUNT.createKeyPair(MINIO_ROOT_USER, MINIO_ROOT_PASSWORD);
  const s3 = createLocalS3({ directory, address: '0.0.0.0', port: 9000 });
  const { address, port } = await s3.run();
  console.log(`S3 stand-in for MinIO listening on ${address}:${port}, objects in ${directory}`);
  const stop = () => s3.close().then(() => process.exit(0));
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}

/** `ALIAS/BUCKET` and the endpoint and access key of MC_HOST_<ALIAS> (`http://KEY:SECRET@host:port`). */
function target(spec) {
  const [alias, bucket] = spec.split('/');
  // As in MinIO's image, `local` is this container's own server unless MC_HOST_local says otherwise.
  const host = process.env[`MC_HOST_${alias}`] ?? (alias === 'local' ? 'http://127.0.0.1:9000' : undefined);
  if (!host) fail(`MC_HOST_${alias} is not set`);
  const url = new URL(host);
  return { endpoint: `${url.protocol}//${url.host}`, accessKey: decodeURIComponent(url.username), bucket };
}

/** A request s3rver takes as signed by `accessKey` (it checks the key, not the V4 signature). */
function signedRequest({ endpoint, accessKey }, method, resource, body) {
  const date = new Date().toISOString().replace(/[-:]|\.\d+/g, '');
  const authorization = `AWS4-HMAC-SHA256 Credential=${accessKey}/${date.slice(0, 8)}/us-east-1/s3/aws4_request, SignedHeaders=host;x-amz-date, Signature=${'0'.repeat(64)}`;
  return fetch(`${endpoint}${resource}`, { method, body, headers: { authorization, 'x-amz-date': date, 'x-amz-content-sha256': 'UNSIGNED-PAYLOAD' } });
}

async function mc() {
  const [subcommand, ...rest] = args;
  if (subcommand === 'ready') {
    const response = await fetch(target(rest[0]).endpoint, { signal: AbortSignal.timeout(3000) }).catch(() => null);
    if (!response) fail('not ready');
    return;
  }
  if (subcommand === 'mb') {
    const spec = rest.find((arg) => !arg.startsWith('--'));
    const destination = target(spec);
    const created = await signedRequest(destination, 'PUT', `/${destination.bucket}`);
    const exists = created.status === 409 && rest.includes('--ignore-existing');
    if (!created.ok && !exists) fail(`creating ${spec}: ${created.status} ${await created.text()}`);
    const cors = await signedRequest(destination, 'PUT', `/${destination.bucket}?cors`, PUBLIC_READ_CORS);
    if (!cors.ok) fail(`setting the CORS rule of ${spec}: ${cors.status} ${await cors.text()}`);
    console.log(exists ? `Bucket ${spec} exists` : `Bucket created successfully \`${spec}\`.`);
    return;
  }
  if (subcommand === 'anonymous' && rest[0] === 'set-json') {
    // local-s3.mjs grants anonymous clients exactly this: reading *.webp and *.avif objects.
    const statements = JSON.parse(readFileSync(rest[1], 'utf8')).Statement;
    const granted = statements.flatMap((statement) => statement.Action);
    if (granted.some((action) => action !== 's3:GetObject')) fail(`${rest[1]}: the stand-in enforces anonymous s3:GetObject of *.webp and *.avif only`);
    console.log(`Access permission for \`${rest[2]}\` is set from \`${rest[1]}\``);
    return;
  }
  fail(`unsupported: mc ${args.join(' ')}`);
}

await (command === 'minio' ? server() : mc());
