import type { AccountDeps } from './account-deps.js';
import { authenticate, type Authenticated } from './authenticate.js';
import type { UseCaseRequest } from './use-case-request.js';
import { toAccount, type Account } from './user.js';

/** What `currentAccount` reads: the credentials. */
export type CurrentAccountRequest = Pick<UseCaseRequest, 'credentials'>;

/**
 * The state of the account whose token was presented (docs/api.md, `GET /me/account`): the user
 * object's fields, whether its address is verified, and its times; by the `GET /me` rules, in their
 * order. Offered whether mail is on or off: an account that never proved its address reads
 * `emailVerified: false` either way.
 */
export function currentAccount(deps: Pick<AccountDeps, 'users' | 'tokens' | 'clock'>, request: CurrentAccountRequest): Promise<Account> {
  // A `then`, not an async function: the one asynchronous step is `authenticate`'s.
  return authenticate(deps, request).then(accountOf);
}

const accountOf = ({ user }: Authenticated): Account => toAccount(user);
