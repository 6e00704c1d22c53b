import type { AccountDeps } from '../accounts/account-deps.js';
import type { PostAccessPolicy } from './post-access.js';
import type { IdempotencyStore, PostRepository } from './ports.js';
import type { PostWriteLimits } from './post-write-limits.js';
import type { SafeWriteRules } from './safe-writes.js';

/**
 * Every port, policy and rule set a use case may take, in one object: a service builds it once
 * and passes it to any use case, each of which takes a `Pick` of exactly what it touches. The
 * accounts' part is `AccountDeps` (declared with the account use cases, which take only from it);
 * the posts add their repository, in place of the narrower one an account deletion needs, and
 * their access policy, which has no default: a service chooses who may do what to a post.
 */
export interface UseCaseDeps extends AccountDeps {
  /** Where posts live. */
  readonly posts: PostRepository;
  /** Who may read, write and list which posts (`openPostAccess`, `ownerPostAccess`); required wherever posts are involved. */
  readonly postAccess: PostAccessPolicy;
  /** The write budget of posts per client address; off when omitted. */
  readonly postWriteLimits?: PostWriteLimits;
  /** Whether writes must be conditional, and how long idempotency keys are kept; `DEFAULT_SAFE_WRITE_RULES` when omitted. */
  readonly safeWriteRules?: SafeWriteRules;
  /** Where idempotency keys are kept: a create that comes with a key needs it. */
  readonly idempotencyKeys?: IdempotencyStore;
}
