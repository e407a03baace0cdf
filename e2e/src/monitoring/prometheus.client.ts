import { http, pollUntil } from '@platform/testing';
import { expect } from 'vitest';
import { stack } from '../stack.config';

/** Skipped only when the run says so (E2E_PROMETHEUS=off); the notice makes the gap visible. */
export const withoutPrometheus = stack.prometheusUrl === undefined;
if (withoutPrometheus) console.warn('[e2e] E2E_PROMETHEUS=off: the tests of what Prometheus sees of the stack are skipped');

/**
 * How long an alert may take to follow the stack: a scrape, the rules' `for` on the run's time
 * scale (5 s at most) and evaluations, on a busy machine.
 */
export const ALERT_TIMEOUT_MS = 60_000;

export interface ScrapeTarget {
  labels: { job: string; instance: string };
  health: 'up' | 'down' | 'unknown';
  lastError: string;
}

export interface Alert {
  labels: Record<string, string>;
  annotations: Record<string, string>;
  state: 'pending' | 'firing';
}

async function api<T>(path: string): Promise<T> {
  const res = await http<{ status: string; data: T }>(stack.prometheusUrl!, 'GET', `/api/v1/${path}`);
  expect(res.status, res.text).toBe(200);
  return res.body.data;
}

export const scrapeTargets = async () => (await api<{ activeTargets: ScrapeTarget[] }>('targets')).activeTargets;

/** The alert `name` as Prometheus holds it now: pending, firing, or undefined when it is not active. */
export async function alertNow(name: string): Promise<Alert | undefined> {
  return (await api<{ alerts: Alert[] }>('alerts')).alerts.find((alert) => alert.labels.alertname === name);
}

/** Waits until the alert is firing, or no longer active (`undefined`: resolved), and returns it. */
export function alertBecomes(name: string, state: 'firing' | undefined): Promise<Alert | undefined> {
  return pollUntil(
    () => alertNow(name),
    (alert) => alert?.state === state,
    { timeoutMs: ALERT_TIMEOUT_MS, intervalMs: 500, what: `${name} ${state ?? 'resolved'}` },
  );
}

/**
 * Times the phases of a test for its log line: each call notes how long since the one before,
 * and returns every phase so far (`stopped 1.0 s, firing 7.2 s`).
 */
export function phases(): (phase: string) => string {
  const noted: string[] = [];
  let last = Date.now();
  return (phase) => {
    noted.push(`${phase} ${((Date.now() - last) / 1000).toFixed(1)} s`);
    last = Date.now();
    return noted.join(', ');
  };
}
