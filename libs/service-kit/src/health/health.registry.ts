import { Injectable } from '@nestjs/common';

export type HealthCheck = () => Promise<unknown>;

export interface HealthReport {
  status: 'ok' | 'error';
  checks: Record<string, { status: 'up' | 'down'; error?: string }>;
}

const CHECK_TIMEOUT_MS = 2000;

/** Infrastructure modules register a probe of their real dependency here; /health runs them all. */
@Injectable()
export class HealthRegistry {
  private readonly checks = new Map<string, HealthCheck>();

  register(name: string, check: HealthCheck): void {
    this.checks.set(name, check);
  }

  async report(): Promise<HealthReport> {
    const entries = await Promise.all(
      [...this.checks].map(async ([name, check]) => {
        try {
          await withTimeout(check(), CHECK_TIMEOUT_MS);
          return [name, { status: 'up' as const }] as const;
        } catch (error) {
          return [name, { status: 'down' as const, error: error instanceof Error ? error.message : String(error) }] as const;
        }
      }),
    );
    const checks = Object.fromEntries(entries);
    return { status: entries.every(([, c]) => c.status === 'up') ? 'ok' : 'error', checks };
  }
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
