/** Default local ports, one per service, so every service can run side by side on a laptop. */
export const DefaultPort = {
  'translate-api': 3000,
  'image-api': 3100,
  'webhook-dispatcher': 3200,
  'batch-worker': 3300,
  'image-worker': 3400,
} as const;
export type ServiceName = keyof typeof DefaultPort;
