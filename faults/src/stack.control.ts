import { stackControl } from '@platform/testing';
import pg from 'pg';

/**
 * The stack under test, run by faults/stack/controller.mjs (started by `npm run faults`), and the
 * levers its control interface offers: kill, stop and start any service or server.
 */
export type Service = 'translate-api' | 'image-api' | 'webhook-dispatcher' | 'batch-worker' | 'image-worker';
export const SERVICES: Service[] = ['translate-api', 'image-api', 'webhook-dispatcher', 'batch-worker', 'image-worker'];
export type Server = 'postgres' | 'redis' | 's3';

export interface ServiceState {
  pid: number;
  running: boolean;
  starts: number;
  /** Exits nobody asked for; the controller starts the service again after each. */
  crashes: { at: number; how: string }[];
  lastExit: string | null;
}

export interface StackState {
  urls: Record<Service, string>;
  infra: { databaseUrl: string; redisUrl: string; s3Endpoint: string; bucket: string; cdnUrl: string };
  settings: { webhookRetrySchedule: string };
  services: Record<Service, ServiceState>;
  servers: Record<Server, { running: boolean; exit: string | null }>;
  /** Whether the S3 server's disk can be filled (a tmpfs of its own, which needs root). */
  canFillDisk: boolean;
}

/** An error-level log line, or a line on stderr, of a service. */
export interface ProblemLine {
  at: number;
  service: Service;
  line: string;
}

const { control, signal, start } = stackControl(
  (() => {
    const url = process.env.FAULTS_CONTROL_URL;
    if (!url) throw new Error('FAULTS_CONTROL_URL is not set: run the fault suite through `npm run faults`');
    return url;
  })(),
);

export const stack = {
  state: () => control<StackState>('GET', '/state'),
  /** Resident memory of each service's process, in bytes. */
  rss: () => control<Record<Service, number | null>>('GET', '/rss'),
  problems: (since: number) => control<ProblemLine[]>('GET', `/problems?since=${since}`),
  signal: (service: Service, how: 'SIGKILL' | 'SIGTERM') => signal(service, how),
  start: (service: Service, options?: { wait?: boolean }) => start(service, options),
  /** PostgreSQL gets a fast shutdown; Redis and S3 are killed. */
  stopServer: (server: Server) => control<object>('POST', `/infra/${server}/stop`, {}),
  startServer: (server: Server) => control<object>('POST', `/infra/${server}/start`, {}),
  /** Every process of the server stopped with SIGSTOP: its connections stay open and nothing answers. */
  freezeServer: (server: Server) => control<object>('POST', `/infra/${server}/freeze`, {}),
  thawServer: (server: Server) => control<object>('POST', `/infra/${server}/thaw`, {}),
  /** The S3 server's disk left without a free byte (writes fail with ENOSPC), or given its room back. */
  fillS3Disk: (full: boolean) => control<object>('POST', '/infra/s3/disk', { full }),
  /** Runs an operator command of translate-api or image-api and returns the secret it printed. */
  admin: async (app: 'translate-api' | 'image-api', args: string[]) => (await control<{ secret: string }>('POST', '/admin', { app, args })).secret,
};

/** A query against the stack's own database (the ledger, jobs, deliveries), outside every API. */
export async function sql<T extends pg.QueryResultRow = any>(text: string, values: unknown[] = []): Promise<T[]> {
  const client = new pg.Client({ connectionString: (await stack.state()).infra.databaseUrl });
  await client.connect();
  try {
    return (await client.query<T>(text, values)).rows;
  } finally {
    await client.end();
  }
}

/** Starts each service that a scenario left stopped, so the next one finds the whole stack. */
export async function startStopped(): Promise<void> {
  const { services } = await stack.state();
  for (const service of SERVICES) if (!services[service].running) await stack.start(service);
}

/** A fresh name, so scenarios never meet each other's accounts. */
export const uniqueName = (what: string) => `${what}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 6)}`;
