import type { Answer } from './platform.client';
import { health, sleep } from './platform.client';
import { SERVICES, stack, type Server, type Service } from './stack.control';

type Health = Awaited<ReturnType<typeof health>>;

/** Each service's /health seen during and after an outage. */
export interface HealthTimeline {
  during: Record<Service, Health[]>;
  after: Record<Service, Health>;
}

/** A server stopped (Postgres shut down, the others killed) or frozen (it hangs), and started or thawed again. */
const LEVERS = {
  stop: [stack.stopServer, stack.startServer],
  freeze: [stack.freezeServer, stack.thawServer],
} as const;

/**
 * Stops or freezes `server` for `downMs` while `/health` of every service is watched, starts or
 * thaws it again, and waits until every service reports healthy by itself (no restart), up to
 * `recoveryMs`.
 */
export async function outage(server: Server, downMs: number, recoveryMs: number, how: keyof typeof LEVERS = 'stop') {
  const [down, up] = LEVERS[how];
  const during = Object.fromEntries(SERVICES.map((s) => [s, []])) as unknown as HealthTimeline['during'];
  await down(server);
  const stoppedAt = Date.now();
  while (Date.now() - stoppedAt < downMs) {
    const seen = await Promise.all(SERVICES.map(health));
    SERVICES.forEach((service, i) => during[service].push(seen[i]));
    await sleep(2000);
  }
  await up(server);
  const startedAt = Date.now();
  let after = {} as HealthTimeline['after'];
  while (Date.now() - startedAt < recoveryMs) {
    const seen = await Promise.all(SERVICES.map(health));
    after = Object.fromEntries(SERVICES.map((service, i) => [service, seen[i]])) as HealthTimeline['after'];
    if (seen.every((h) => h.status === 200)) break;
    await sleep(1000);
  }
  return { stoppedAt, startedAt, recoveredAt: Date.now(), health: { during, after } as HealthTimeline };
}

/** Answers counted by status (and error code), for the report and for failure messages. */
export function tally(answers: Answer[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const a of answers) {
    const key = a.status === 0 ? `no answer (${a.error})` : `${a.status}${a.body?.error ? ` ${a.body.error}` : ''}`;
    counts[key] = (counts[key] ?? 0) + 1;
  }
  return counts;
}
