import { loadConfig } from '@platform/service-kit';
import { describeHttpLimits } from '@platform/testing';
import { ImageApiConfig } from '../config/image-api.config';
import { serveImageApi } from '../image-api.app';

describeHttpLimits({
  service: 'image-api',
  start: (env) => serveImageApi(loadConfig(ImageApiConfig, env)),
  envelope: 'image',
  unauthenticated: { method: 'GET', path: `/access-token/img_${'x'.repeat(40)}` },
  // Without a header token the form is read, since the token may come as one of its fields.
  bodyRequest: { path: '/convert', headers: { 'content-type': 'multipart/form-data; boundary=limits' } },
});
