import type { Caller } from '../accounts/caller.js';
import type { IdempotentRequest } from '../accounts/use-case-request.js';
import { randomBase64Url, sha256 } from '../shared/digests.js';
import { DomainError, isDomainError } from '../shared/errors.js';
import { FIRST_POST_VERSION, type Post, type VersionedPost } from './post.js';
import type { IdempotencyStore, KeptOutcome } from './ports.js';
import { DEFAULT_SAFE_WRITE_RULES } from './safe-writes.js';
import type { UseCaseDeps } from './use-case-deps.js';

/** A created post, and whether it is the answer kept for an idempotency key, given again. */
export interface CreatedPost extends VersionedPost {
  /** True when the post is the answer kept for the create's idempotency key, given again: nothing was stored now. */
  readonly replayed: boolean;
}

/** The id and time a post is created with under an idempotency key: fixed when the key is first reserved. */
export interface FixedCreate {
  readonly id: string;
  readonly createdAt: number;
}

/**
 * Makes the post `fixed` says from the request's body, storing it when `store` is true, or only
 * answering it (the kept answer, given again); throws what the body or the writer's rules refuse.
 */
export type CreateUnder = (fixed: FixedCreate, store: boolean) => Promise<Post>;

/** What `createOnce` touches. */
type CreateOnceDeps = Pick<UseCaseDeps, 'clock' | 'posts' | 'safeWriteRules' | 'idempotencyKeys'>;

/**
 * A create under an idempotency key (`idempotency`), by `writer`: it runs at most once per key,
 * and later requests with the key get its answer. The key belongs to the writer's account, or to
 * the service for an anonymous writer, and is kept hashed with that scope; the request is kept as
 * a hash of its bytes, its fingerprint. Reserving the key fixes the post's id and time, so that:
 *
 * - the same request again, once the first answered, gets that answer given again (`replayed`):
 *   the post it created, made again from the same body under the same id and time (the body's
 *   bytes are the same, so the post is too), or the same validation failure;
 * - the same request while the first still runs is `IdempotencyKeyInProgress` (try again in a
 *   second), and another request with the key is `IdempotencyKeyReused`;
 * - a run that failed in any other way (a refused token, an unavailable store) keeps no answer and
 *   lets the key go, and a run whose process died lets it go when its lease ends: the next same
 *   request runs again under the same id, and finds the post stored already if the run got that
 *   far (`insertAs` answers null), so the key creates one post however often it runs.
 */
export async function createOnce(deps: CreateOnceDeps, idempotency: IdempotentRequest, writer: Caller, create: CreateUnder): Promise<CreatedPost> {
  const keys = deps.idempotencyKeys;
  if (keys === undefined) throw new Error('createPost: a request with an idempotency key needs deps.idempotencyKeys');
  const rules = deps.safeWriteRules ?? DEFAULT_SAFE_WRITE_RULES;
  const scope = writer.kind === 'user' ? `user:${writer.userId}` : 'service';
  const [key, fingerprint] = await Promise.all([sha256(`${scope}\n${idempotency.key}`), idempotency.request().then(sha256)]);
  const now = deps.clock.now();
  const lease = randomBase64Url(12);
  const record = await keys.reserve(
    { key, fingerprint, lease, leaseUntil: now + rules.idempotencyLeaseMs, postId: deps.posts.newId(), createdAt: now, expiresAt: now + rules.idempotencyTtlMs },
    now,
  );
  if (record.fingerprint !== fingerprint) throw new DomainError('IdempotencyKeyReused');
  const fixed: FixedCreate = { id: record.postId, createdAt: record.createdAt };
  if (record.outcome !== null) return replay(() => create(fixed, false));
  if (record.lease !== lease) throw new DomainError('IdempotencyKeyInProgress', undefined, { retryAfterSeconds: 1 });

  let post: Post;
  try {
    post = await create(fixed, true);
  } catch (error) {
    if (isDomainError(error, 'ValidationFailed')) await keep(keys, key, lease, 'refused');
    else await keys.release(key, lease).catch(() => undefined);
    throw error;
  }
  await keep(keys, key, lease, 'created');
  return { post, version: FIRST_POST_VERSION, replayed: false };
}

/**
 * Keeps the answer for the key. A store that cannot be reached leaves the run's answer standing
 * (the post is stored, or the body refused): the key stays reserved, and once its lease ends the
 * same request runs again and comes to the same answer.
 */
async function keep(keys: IdempotencyStore, key: string, lease: string, outcome: KeptOutcome): Promise<void> {
  try {
    await keys.complete(key, lease, outcome);
  } catch (error) {
    if (!isDomainError(error, 'StoreUnavailable')) throw error;
  }
}

/** The kept answer, made again: the post, or the failure, marked as given again. */
async function replay(made: () => Promise<Post>): Promise<CreatedPost> {
  try {
    return { post: await made(), version: FIRST_POST_VERSION, replayed: true };
  } catch (error) {
    if (isDomainError(error)) throw new DomainError(error.code, error.issues, { cause: error, replayed: true });
    throw error;
  }
}
