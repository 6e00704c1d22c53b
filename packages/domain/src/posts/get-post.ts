import { authenticateCaller } from '../accounts/caller.js';
import type { UseCaseRequest } from '../accounts/use-case-request.js';
import { NO_CREDENTIALS } from '../accounts/credentials.js';
import type { VersionedPost } from './post.js';
import type { UseCaseDeps } from './use-case-deps.js';

/** What `getPost` reads: the credentials (checked where the policy says so), and the post's id. */
export type GetPostRequest = Pick<UseCaseRequest, 'credentials' | 'postId'>;

/**
 * One post by id, with its version (docs/api.md, `GET /posts/{id}`). Credentials are checked
 * first where the policy says so; a post the reader may not see (another user's draft, under
 * owner access) is answered exactly as a missing one.
 */
export async function getPost(deps: Pick<UseCaseDeps, 'users' | 'tokens' | 'clock' | 'posts' | 'postAccess'>, request: GetPostRequest): Promise<VersionedPost> {
  const access = deps.postAccess;
  const reader = access.reader(request.credentials ?? NO_CREDENTIALS) ?? (await authenticateCaller(deps, request));
  const found = await deps.posts.findById(request.postId);
  access.visible(reader, found && found.post);
  return found as VersionedPost;
}
