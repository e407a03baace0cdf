import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { DefaultPort, FETCH_BAD_PORTS } from './service-ports';
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

  it('lists exactly the bad ports of the fetch implementation in use, and no default port among them', async () => {
    const undici = readFileSync(createRequire(import.meta.url).resolve('undici/lib/web/fetch/constants.js'), 'utf8');
    const listed = /badPorts = [^[]*\[([\s\S]*?)\]/.exec(undici)![1].match(/\d+/g)!.map(Number);
    expect(FETCH_BAD_PORTS).toEqual(listed);
    expect(Object.values(DefaultPort).filter((port) => FETCH_BAD_PORTS.includes(port))).toEqual([]);
    for (const port of [6000, 6666, 10080]) {
      await expect(fetch(`http://127.0.0.1:${port}/`)).rejects.toMatchObject({ cause: { message: 'bad port' } });
    }
  });
});
