import { describe, expect, it } from 'vitest';
import { DefaultPort } from './service-ports';
import { QueueName } from './queues';

describe('contracts', () => {
  it('gives every service its own default port, so all run side by side', () => {
    const ports = Object.values(DefaultPort);
    expect(new Set(ports).size).toBe(ports.length);
  });

  it('gives every queue its own name, so no worker consumes another queue', () => {
    const names = Object.values(QueueName);
    expect(new Set(names).size).toBe(names.length);
  });
});
