import { authenticate, type AuthenticateDeps } from './authenticate.js';
import { toPublicUser, type PublicUser } from './user.js';

/** What `GET /me` needs. */
export type CurrentUserDeps = AuthenticateDeps;

/**
 * The account that owns a token (docs/api.md, `GET /me`). `token` is null when the request
 * presented no bearer credentials at all.
 */
export async function currentUser(deps: CurrentUserDeps, token: string | null): Promise<PublicUser> {
  return toPublicUser((await authenticate(deps, token)).user);
}
