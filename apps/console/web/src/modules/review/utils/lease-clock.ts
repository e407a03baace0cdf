/** The warning comes a minute before the lease ends, or at its last fifth when leases are shorter than five minutes. */
export const warnBeforeMs = (leaseSeconds: number) => Math.min(60_000, (leaseSeconds * 1000) / 5);

/** `m:ss` (or `h:mm:ss`) of what is left, never below zero; rounded up, so 0:00 means the lease is over. */
export function formatRemaining(ms: number): string {
  const total = Math.max(0, Math.ceil(ms / 1000));
  const [hours, minutes, seconds] = [Math.floor(total / 3600), Math.floor((total % 3600) / 60), total % 60];
  const pad = (value: number) => String(value).padStart(2, '0');
  return hours > 0 ? `${hours}:${pad(minutes)}:${pad(seconds)}` : `${minutes}:${pad(seconds)}`;
}
