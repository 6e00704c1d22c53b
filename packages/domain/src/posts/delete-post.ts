import { authenticateCaller } from '../accounts/caller.js';
import { NO_CREDENTIALS } from '../accounts/credentials.js';
import type { UseCaseRequest } from '../accounts/use-case-request.js';
import { DomainError } from '../shared/errors.js';
import type { UseCaseDeps } from './use-case-deps.js';

/** What `deletePost` reads: the credentials (checked where the policy says so), and the post's id. */
export type DeletePostRequest = Pick<UseCaseRequest, 'credentials' | 'postId'>;

/**
 * Deletes a post (docs/api.md, `DELETE /posts/{id}`). The writer, then the post: it must exist
 * for them and be theirs to delete, whatever the policy makes of that.
 */
export async function deletePost(deps: Pick<UseCaseDeps, 'users' | 'tokens' | 'clock' | 'posts' | 'postAccess'>, request: DeletePostRequest): Promise<void> {
  const access = deps.postAccess;
  const writer = access.writer(request.credentials ?? NO_CREDENTIALS) ?? (await authenticateCaller(deps, request));
  access.changeable(writer, await deps.posts.findById(request.postId));
  if (!(await deps.posts.delete(request.postId))) throw new DomainError('PostNotFound'); // deleted by someone else meanwhile
}
