import type { AccountDeps } from './account-deps.js';
import { authenticate, type Authenticated } from './authenticate.js';
import type { UseCaseRequest } from './use-case-request.js';
import { toPublicUser, type PublicUser } from './user.js';

/** What `currentUser` reads: the credentials. */
export type CurrentUserRequest = Pick<UseCaseRequest, 'credentials'>;

/** The account whose token was presented (docs/api.md, `GET /me`). */
export function currentUser(deps: Pick<AccountDeps, 'users' | 'tokens' | 'clock'>, request: CurrentUserRequest): Promise<PublicUser> {
  // A `then`, not an async function: the one asynchronous step is `authenticate`'s.
  return authenticate(deps, request).then(publicUserOf);
}

const publicUserOf = ({ user }: Authenticated): PublicUser => toPublicUser(user);
