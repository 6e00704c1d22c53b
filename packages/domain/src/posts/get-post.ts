import type { AuthenticateDeps } from '../accounts/authenticate.js';
import { authenticateCaller } from '../accounts/caller.js';
import { NO_CREDENTIALS, type Credentials } from '../accounts/credentials.js';
import type { Post } from './post.js';
import { openPostAccess, type PostAccessPolicy } from './post-access.js';
import type { PostRepository } from './ports.js';

export interface GetPostDeps extends AuthenticateDeps {
  readonly posts: PostRepository;
  /** Who may read which posts; the open contract (any post, drafts included) when omitted. */
  readonly postAccess?: PostAccessPolicy;
}

/**
 * One post by id (docs/api.md, `GET /posts/{id}`). Credentials are checked first where the policy
 * says so; a post the reader may not see (another user's draft, under owner access) is answered
 * exactly as a missing one.
 */
export async function getPost(deps: GetPostDeps, id: string, credentials: Credentials = NO_CREDENTIALS): Promise<Post> {
  const access = deps.postAccess ?? openPostAccess;
  const reader = access.reader(credentials) ?? (await authenticateCaller(deps, credentials));
  return access.visible(reader, await deps.posts.findById(id));
}
