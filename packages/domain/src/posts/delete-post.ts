import { ANONYMOUS, isPending, type CallerSource } from '../accounts/caller.js';
import { DomainError } from '../shared/errors.js';
import { findPostToChange, openPostAccess, type PostAccessPolicy } from './post-access.js';
import type { PostRepository } from './ports.js';

export interface DeletePostDeps {
  readonly posts: PostRepository;
  /** Who may delete which posts; the open contract when omitted. */
  readonly postAccess?: PostAccessPolicy;
}

/**
 * Deletes a post (docs/api.md, `DELETE /posts/{id}`). Where posts have owners, the post is
 * looked up first, since whether the writer may delete it depends on whose it is; otherwise
 * the delete alone says whether there was one.
 */
export async function deletePost(deps: DeletePostDeps, id: string, caller: CallerSource = ANONYMOUS): Promise<void> {
  const access = deps.postAccess ?? openPostAccess;
  const asked = access.writer(caller);
  const writer = isPending(asked) ? await asked : asked;
  if (access.postsHaveOwners) await findPostToChange(deps.posts, access, writer, id);
  if (!(await deps.posts.delete(id))) throw new DomainError('PostNotFound');
}
