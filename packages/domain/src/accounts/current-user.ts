import { authenticate, type AuthenticateDeps, type Authenticated } from './authenticate.js';
import type { Credentials } from './credentials.js';
import { toPublicUser, type PublicUser } from './user.js';

/** What `GET /me` needs. */
export type CurrentUserDeps = AuthenticateDeps;

/** The account whose token was presented (docs/api.md, `GET /me`). */
export function currentUser(deps: CurrentUserDeps, credentials: Credentials): Promise<PublicUser> {
  // A `then`, not an async function: the one asynchronous step is `authenticate`'s.
  return authenticate(deps, credentials).then(publicUserOf);
}

const publicUserOf = ({ user }: Authenticated): PublicUser => toPublicUser(user);
