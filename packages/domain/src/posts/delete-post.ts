import { authenticateCaller } from '../accounts/caller.js';
import { NO_CREDENTIALS } from '../accounts/credentials.js';
import type { UseCaseRequest } from '../accounts/use-case-request.js';
import { DomainError } from '../shared/errors.js';
import { countedPostWrite } from './post-write-limits.js';
import type { UseCaseDeps } from './use-case-deps.js';

/** What `deletePost` reads: the credentials (checked where the policy says so), the post's id, and the client, whose address the write budget counts. */
export type DeletePostRequest = Pick<UseCaseRequest, 'credentials' | 'postId' | 'client'>;

/**
 * Deletes a post (docs/api.md, `DELETE /posts/{id}`). The writer, then the post: it must exist
 * for them and be theirs to delete, whatever the policy makes of that. The deletion is one write
 * of the client's write budget (`postWriteLimits`), given back if nothing was deleted.
 */
export async function deletePost(
  deps: Pick<UseCaseDeps, 'users' | 'tokens' | 'clock' | 'posts' | 'postAccess' | 'postWriteLimits'>,
  request: DeletePostRequest,
): Promise<void> {
  const access = deps.postAccess;
  const writer = access.writer(request.credentials ?? NO_CREDENTIALS) ?? (await authenticateCaller(deps, request));
  access.changeable(writer, await deps.posts.findById(request.postId));
  await countedPostWrite(deps.postWriteLimits, request.client, async () => {
    if (!(await deps.posts.delete(request.postId))) throw new DomainError('PostNotFound'); // deleted by someone else meanwhile
  });
}
