import { authenticateCaller } from '../accounts/caller.js';
import type { UseCaseRequest } from '../accounts/use-case-request.js';
import { NO_CREDENTIALS } from '../accounts/credentials.js';
import type { Post } from './post.js';
import type { UseCaseDeps } from './use-case-deps.js';

/** What `getPost` reads: the credentials (checked where the policy says so), and the post's id. */
export type GetPostRequest = Pick<UseCaseRequest, 'credentials' | 'postId'>;

/**
 * One post by id (docs/api.md, `GET /posts/{id}`). Credentials are checked first where the policy
 * says so; a post the reader may not see (another user's draft, under owner access) is answered
 * exactly as a missing one.
 */
export async function getPost(deps: Pick<UseCaseDeps, 'users' | 'tokens' | 'clock' | 'posts' | 'postAccess'>, request: GetPostRequest): Promise<Post> {
  const access = deps.postAccess;
  const reader = access.reader(request.credentials ?? NO_CREDENTIALS) ?? (await authenticateCaller(deps, request));
  return access.visible(reader, await deps.posts.findById(request.postId));
}
