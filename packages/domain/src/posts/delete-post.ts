import { authenticateCaller } from '../accounts/caller.js';
import { NO_CREDENTIALS } from '../accounts/credentials.js';
import type { UseCaseRequest } from '../accounts/use-case-request.js';
import type { VersionedPost } from './post.js';
import { countedPostWrite } from './post-write-limits.js';
import { unwritten, writeCondition } from './safe-writes.js';
import type { UseCaseDeps } from './use-case-deps.js';

/**
 * What `deletePost` reads: the credentials (checked where the policy says so), the post's id, the
 * versions the deletion is conditional on, and the client, whose address the write budget counts.
 */
export type DeletePostRequest = Pick<UseCaseRequest, 'credentials' | 'postId' | 'ifMatch' | 'client'>;

/**
 * Deletes a post (docs/api.md, `DELETE /posts/{id}`). The writer, then the post: it must exist
 * for them and be theirs to delete, whatever the policy makes of that; then the condition on its
 * version (`writeCondition`), checked again atomically with the deletion. The deletion is one
 * write of the client's write budget (`postWriteLimits`), given back if nothing was deleted.
 */
export async function deletePost(
  deps: Pick<UseCaseDeps, 'users' | 'tokens' | 'clock' | 'posts' | 'postAccess' | 'safeWriteRules' | 'postWriteLimits'>,
  request: DeletePostRequest,
): Promise<void> {
  const access = deps.postAccess;
  const writer = access.writer(request.credentials ?? NO_CREDENTIALS) ?? (await authenticateCaller(deps, request));
  const found = await deps.posts.findById(request.postId);
  access.changeable(writer, found && found.post);
  const condition = writeCondition(deps.safeWriteRules, request.ifMatch, (found as VersionedPost).version);
  await countedPostWrite(deps.postWriteLimits, request.client, async () => {
    // Deleted, or changed, by someone else between the look-up and the deletion.
    if (!(await deps.posts.delete(request.postId, condition))) throw await unwritten(deps.posts, request.postId, condition);
  });
}
