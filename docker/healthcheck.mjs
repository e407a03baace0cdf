// The image's HEALTHCHECK: GET /health of the service in this container, with the node binary the
// image already has (no curl). Exit 0 on 200; 1 on anything else, printing why for `docker inspect`.
import http from 'node:http';
import https from 'node:https';

const { HOST, PORT, TLS_CERT_FILE, TLS_KEY_FILE } = process.env;
const TIMEOUT_MS = 4000;

// A service bound to every interface is reached over loopback.
const host = !HOST || HOST === '0.0.0.0' || HOST === '::' ? '127.0.0.1' : HOST;
// With both files set the service speaks only HTTPS. Its certificate names the public host, not
// loopback, and the probe sends nothing secret, so the certificate is not checked.
const client = TLS_CERT_FILE && TLS_KEY_FILE ? https : http;

const fail = (reason) => {
  console.error(`unhealthy: ${reason}`);
  process.exit(1);
};

const request = client.get({ host, port: Number(PORT), path: '/health', timeout: TIMEOUT_MS, rejectUnauthorized: false }, (response) => {
  let body = '';
  response.setEncoding('utf8');
  response.on('data', (chunk) => (body += chunk));
  response.on('end', () => (response.statusCode === 200 ? process.exit(0) : fail(`${response.statusCode} ${body}`)));
});
request.on('timeout', () => request.destroy(new Error(`no answer within ${TIMEOUT_MS} ms`)));
request.on('error', (error) => fail(error.message));
