import { execFile } from 'node:child_process';
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

export interface SelfSignedCertificate {
  key: Buffer;
  cert: Buffer;
  keyFile: string;
  certFile: string;
}

/** A self-signed certificate for 127.0.0.1, which is also the CA a client must be given to trust it. */
export async function selfSignedCertificate(): Promise<SelfSignedCertificate> {
  const dir = await mkdtemp(path.join(tmpdir(), 'test-tls-'));
  const [keyFile, certFile] = [path.join(dir, 'key.pem'), path.join(dir, 'cert.pem')];
  await promisify(execFile)('openssl', [
    'req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-days', '1',
    '-subj', '/CN=127.0.0.1', '-addext', 'subjectAltName=IP:127.0.0.1', '-keyout', keyFile, '-out', certFile,
  ]);
  return { key: await readFile(keyFile), cert: await readFile(certFile), keyFile, certFile };
}
