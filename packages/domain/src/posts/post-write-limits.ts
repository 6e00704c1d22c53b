import { giveBackAttempts, limitedKey, takeAttempts, type AttemptLimiter } from '../accounts/attempt-limiter.js';
import type { ClientContext } from '../accounts/client-context.js';

/**
 * The write budget of posts: post writes (creating, changing or deleting a post) counted per
 * client address, so that one client cannot fill the store or keep it busy. Off when omitted, and
 * for a caller whose address is unknown.
 */
export interface PostWriteLimits {
  /** Post writes per client address (`ClientContext.clientAddress`). */
  readonly perAddress?: AttemptLimiter;
}

/**
 * Runs `write`, one post write of `client`'s: counted against the per-address limit first (past
 * it, `TooManyAttempts` with the wait, and nothing is written; the limit's store unreachable,
 * `StoreUnavailable`), and given back when the write fails (the post gone, the store unreachable),
 * since nothing was written then; unless `spent` says the failure left something stored all the same.
 */
export async function countedPostWrite<T>(
  limits: PostWriteLimits | undefined,
  client: ClientContext | undefined,
  write: () => Promise<T>,
  spent: (error: unknown) => boolean = () => false,
): Promise<T> {
  const taken = await takeAttempts([limitedKey(limits?.perAddress, client?.clientAddress)]);
  try {
    return await write();
  } catch (error) {
    if (!spent(error)) await giveBackAttempts(taken);
    throw error;
  }
}
