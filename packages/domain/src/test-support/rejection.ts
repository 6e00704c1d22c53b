import { expect } from 'vitest';
import { DomainError } from '../shared/errors.js';

/** Awaits a promise that must reject with a DomainError, and returns that error for further checks. */
export async function rejection(promise: Promise<unknown>): Promise<DomainError> {
  const error = await promise.then(
    () => {
      throw new Error('expected the promise to reject');
    },
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(DomainError);
  return error as DomainError;
}
