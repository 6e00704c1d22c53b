import { authenticate, type AuthenticateDeps, type Authenticated } from './authenticate.js';
import { toPublicUser, type PublicUser } from './user.js';

/** What `GET /me` needs. */
export type CurrentUserDeps = AuthenticateDeps;

/**
 * The account that owns a token (docs/api.md, `GET /me`). `token` is null when the request
 * presented no bearer credentials at all.
 */
export function currentUser(deps: CurrentUserDeps, token: string | null): Promise<PublicUser> {
  // A `then`, not an async function: the one asynchronous step is `authenticate`'s.
  return authenticate(deps, token).then(publicUserOf);
}

const publicUserOf = ({ user }: Authenticated): PublicUser => toPublicUser(user);
