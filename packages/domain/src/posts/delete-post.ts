import { authenticateCaller } from '../accounts/caller.js';
import { NO_CREDENTIALS } from '../accounts/credentials.js';
import type { UseCaseRequest } from '../accounts/use-case-request.js';
import type { VersionedPost } from './post.js';
import { unwritten, writeCondition } from './safe-writes.js';
import type { UseCaseDeps } from './use-case-deps.js';

/** What `deletePost` reads: the credentials (checked where the policy says so), the post's id, and the versions the deletion is conditional on. */
export type DeletePostRequest = Pick<UseCaseRequest, 'credentials' | 'postId' | 'ifMatch'>;

/**
 * Deletes a post (docs/api.md, `DELETE /posts/{id}`). The writer, then the post: it must exist
 * for them and be theirs to delete, whatever the policy makes of that; then the condition on its
 * version (`writeCondition`), checked again atomically with the deletion.
 */
export async function deletePost(
  deps: Pick<UseCaseDeps, 'users' | 'tokens' | 'clock' | 'posts' | 'postAccess' | 'safeWriteRules'>,
  request: DeletePostRequest,
): Promise<void> {
  const access = deps.postAccess;
  const writer = access.writer(request.credentials ?? NO_CREDENTIALS) ?? (await authenticateCaller(deps, request));
  const found = await deps.posts.findById(request.postId);
  access.changeable(writer, found && found.post);
  const condition = writeCondition(deps.safeWriteRules, request.ifMatch, (found as VersionedPost).version);
  // Deleted, or changed, by someone else between the look-up and the deletion.
  if (!(await deps.posts.delete(request.postId, condition))) throw await unwritten(deps.posts, request.postId, condition);
}
