import type { VersionCondition } from '../accounts/use-case-request.js';
import { DomainError } from '../shared/errors.js';
import type { PostVersion } from './post.js';
import type { PostRepository } from './ports.js';

/** How post writes treat conditions on versions and idempotency keys. */
export interface SafeWriteRules {
  /** Whether every change or deletion of a post must be conditional on its version (`PreconditionRequired` otherwise). */
  readonly requirePrecondition: boolean;
  /** How long the first answer to an idempotency key is given again to the same request, in milliseconds. */
  readonly idempotencyTtlMs: number;
  /**
   * How long the run of a create holds its idempotency key: meanwhile the same request is refused
   * as in progress; after it (the run's process died) the same request runs again, under the same
   * post id, so that it stores the post at most once. Milliseconds.
   */
  readonly idempotencyLeaseMs: number;
}

/** Conditions are optional, keys are kept for 24 hours, and a run holds its key for 5 seconds. */
export const DEFAULT_SAFE_WRITE_RULES: SafeWriteRules = {
  requirePrecondition: false,
  idempotencyTtlMs: 24 * 60 * 60 * 1000,
  idempotencyLeaseMs: 5000,
};

/**
 * The condition a change or deletion of a post now at `current` is written under, checked before
 * anything else of the write (its body above all): undefined for an unconditional write (none was
 * asked for, or `'*'`, which any existing post meets, as every write needs its post to exist), or
 * the versions listed, which the repository checks again atomically with the write. Refuses a write
 * the rules require a condition of (`PreconditionRequired`), and one whose condition the post does
 * not meet now (`PreconditionFailed`, with its version).
 */
export function writeCondition(
  rules: SafeWriteRules | undefined,
  ifMatch: VersionCondition | undefined,
  current: PostVersion,
): readonly PostVersion[] | undefined {
  if (ifMatch === undefined) {
    if (rules?.requirePrecondition) throw new DomainError('PreconditionRequired');
    return undefined;
  }
  if (ifMatch === '*') return undefined;
  if (!ifMatch.includes(current)) throw preconditionFailed(current);
  return ifMatch;
}

/**
 * Why a write changed nothing although its post was there when the request checked it: the post
 * is gone (`PostNotFound`), or, for a conditional write, another write got in between and moved
 * its version (`PreconditionFailed`, with the version it is at now).
 */
export async function unwritten(posts: Pick<PostRepository, 'findById'>, id: string, condition: readonly PostVersion[] | undefined): Promise<DomainError> {
  const now = condition === undefined ? null : await posts.findById(id);
  return now === null ? new DomainError('PostNotFound') : preconditionFailed(now.version);
}

function preconditionFailed(version: PostVersion): DomainError {
  return new DomainError('PreconditionFailed', undefined, { version });
}
