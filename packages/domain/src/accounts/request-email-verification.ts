import { DomainError } from '../shared/errors.js';
import type { AccountDeps } from './account-deps.js';
import { limitedKey } from './attempt-limiter.js';
import { authenticate } from './authenticate.js';
import { emailVerification, enqueueLimited } from './outgoing-mail.js';
import type { UseCaseRequest } from './use-case-request.js';

/** What `requestEmailVerification` reads: the credentials. */
export type RequestEmailVerificationRequest = Pick<UseCaseRequest, 'credentials'>;

/**
 * Sends the signed-in account a new verification link (docs/api.md, `POST /me/verify-email`):
 * the token first, by the `GET /me` rules; an address verified already is `EmailAlreadyVerified`;
 * then the request is counted against the account's limit, and a message with a new link token
 * is accepted for delivery (the newest link sent is the one that works). A request that ends in a
 * store failure is not counted.
 */
export async function requestEmailVerification(
  deps: Pick<AccountDeps, 'users' | 'tokens' | 'clock' | 'outbox' | 'mailLimits'>,
  request: RequestEmailVerificationRequest,
): Promise<void> {
  const { outbox } = deps;
  if (!outbox) throw new DomainError('NotOffered');
  const { user } = await authenticate(deps, request);
  if (user.emailVerified) throw new DomainError('EmailAlreadyVerified');
  await enqueueLimited(outbox, [limitedKey(deps.mailLimits?.verificationsPerAccount, user.id)], emailVerification(user, deps.clock.now()));
}
