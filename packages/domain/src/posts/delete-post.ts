import type { AuthenticateDeps } from '../accounts/authenticate.js';
import { authenticateCaller } from '../accounts/caller.js';
import { NO_CREDENTIALS, type Credentials } from '../accounts/credentials.js';
import { DomainError } from '../shared/errors.js';
import { openPostAccess, type PostAccessPolicy } from './post-access.js';
import type { PostRepository } from './ports.js';

export interface DeletePostDeps extends AuthenticateDeps {
  readonly posts: PostRepository;
  /** Who may delete which posts; the open contract when omitted. */
  readonly postAccess?: PostAccessPolicy;
}

/**
 * Deletes a post (docs/api.md, `DELETE /posts/{id}`). The writer, then the post: it must exist
 * for them and be theirs to delete, whatever the policy makes of that.
 */
export async function deletePost(deps: DeletePostDeps, id: string, credentials: Credentials = NO_CREDENTIALS): Promise<void> {
  const access = deps.postAccess ?? openPostAccess;
  const writer = access.writer(credentials) ?? (await authenticateCaller(deps, credentials));
  access.changeable(writer, await deps.posts.findById(id));
  if (!(await deps.posts.delete(id))) throw new DomainError('PostNotFound'); // deleted by someone else meanwhile
}
