/** Bull queue names shared by producers and consumers; deployment manifests scale workers on them. */
export const QueueName = {
  Batches: 'translation-batches',
  Webhooks: 'webhook-deliveries',
  ImageVariants: 'image-variants',
} as const;
export type QueueName = (typeof QueueName)[keyof typeof QueueName];
