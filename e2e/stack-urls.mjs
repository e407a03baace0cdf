// The variables naming a stack's services to the end-to-end suite (e2e/src/stack.config.ts), from
// their base URLs; shared by the runners of the native and the compose stack.
export const stackUrlVariables = (urls) => ({
  E2E_TRANSLATE_URL: urls['translate-api'],
  E2E_IMAGE_URL: urls['image-api'],
  E2E_WEBHOOK_DISPATCHER_URL: urls['webhook-dispatcher'],
  E2E_BATCH_WORKER_URL: urls['batch-worker'],
  E2E_IMAGE_WORKER_URL: urls['image-worker'],
  E2E_CONSOLE_URL: urls.console,
});
