import { ApiError } from '@platform/errors';
import { expect } from 'vitest';

/** The ApiError that `work` throws; fails the test when it throws nothing or something else. */
export function refusal(work: () => unknown): ApiError {
  try {
    work();
  } catch (error) {
    expect(error).toBeInstanceOf(ApiError);
    return error as ApiError;
  }
  return expect.fail('no error was thrown');
}

/** The ApiError that `promise` rejects with; fails the test otherwise. */
export async function rejection(promise: Promise<unknown>): Promise<ApiError> {
  const error = await promise.then(
    () => undefined,
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(ApiError);
  return error as ApiError;
}
