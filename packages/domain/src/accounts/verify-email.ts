import { DomainError } from '../shared/errors.js';
import { parseInput, readBody } from '../shared/validation.js';
import type { AccountDeps } from './account-deps.js';
import { hashLinkToken } from './link-tokens.js';
import { VerifyEmailSchema } from './schemas.js';
import type { UseCaseRequest } from './use-case-request.js';
import { toAccount, type Account } from './user.js';

/** What `verifyEmail` reads: the body (`VerifyEmailSchema`); no credentials, since the token is the proof. */
export type VerifyEmailRequest = Pick<UseCaseRequest, 'body'>;

/**
 * Proves an account's address with a verification link's token (docs/api.md,
 * `POST /auth/verify-email`): one atomic write, while the token's hash is the account's recorded
 * verification, unexpired, and the address it was sent to is still the account's, marks the
 * address verified and voids the link, and answers the account as `currentAccount` reads it. Anything
 * else is `InvalidLinkToken`.
 */
export async function verifyEmail(deps: Pick<AccountDeps, 'users' | 'clock' | 'outbox'>, request: VerifyEmailRequest): Promise<Account> {
  if (!deps.outbox) throw new DomainError('NotOffered');
  const { token } = parseInput(VerifyEmailSchema, await readBody(request.body));
  const verified = await deps.users.verifyEmail(await hashLinkToken(token), deps.clock.now());
  if (!verified) throw new DomainError('InvalidLinkToken');
  return toAccount(verified);
}
