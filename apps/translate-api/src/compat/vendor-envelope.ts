import type { ErrorEnvelope, NormalizedError } from '@platform/errors';

/** An envelope for another vendor's API: its status for each of our error codes it names differently, and its body. */
export function vendorEnvelope(statusByCode: Record<string, number>, render: (error: NormalizedError) => Record<string, unknown>): ErrorEnvelope {
  return { status: ({ code, status }) => statusByCode[code] ?? status, render };
}
