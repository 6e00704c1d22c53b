import { DomainError } from '../shared/errors.js';
import type { TokenService, UserRepository } from './ports.js';
import { toPublicUser, type PublicUser } from './user.js';

export interface CurrentUserDeps {
  readonly users: UserRepository;
  readonly tokens: TokenService;
}

/**
 * The account that owns a token (docs/api.md, `GET /me`). `token` is null when the request
 * presented no bearer credentials at all.
 */
export async function currentUser(deps: CurrentUserDeps, token: string | null): Promise<PublicUser> {
  if (token === null) throw new DomainError('MissingAuthorization');

  const userId = await deps.tokens.verify(token);
  if (userId === null) throw new DomainError('InvalidToken');

  const user = await deps.users.findById(userId);
  if (!user) throw new DomainError('UserNoLongerExists');

  return toPublicUser(user);
}
