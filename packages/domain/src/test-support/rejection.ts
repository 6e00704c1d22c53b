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

/**
 * What a promise settles with, as one line a test can compare: `ok`, or its DomainError's code
 * with the facts it carries (`<code> <n>s` for a wait, `<code> at <version>` for a post's current
 * version, `<code> (replayed)` for a kept answer given again). Anything else thrown is thrown on.
 */
export async function outcome(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
    return 'ok';
  } catch (error) {
    if (!(error instanceof DomainError)) throw error;
    const wait = error.retryAfterSeconds === undefined ? '' : ` ${error.retryAfterSeconds}s`;
    const version = error.version === undefined ? '' : ` at ${error.version}`;
    return `${error.code}${wait}${version}${error.replayed ? ' (replayed)' : ''}`;
  }
}
