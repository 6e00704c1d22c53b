import { ANONYMOUS, isPending, type CallerSource } from '../accounts/caller.js';
import { DomainError } from '../shared/errors.js';
import type { Post } from './post.js';
import { openPostAccess, type PostAccessPolicy } from './post-access.js';
import type { PostRepository } from './ports.js';

export interface GetPostDeps {
  readonly posts: PostRepository;
  /** Who may read which posts; the open contract (any post, drafts included) when omitted. */
  readonly postAccess?: PostAccessPolicy;
}

/**
 * One post by id (docs/api.md, `GET /posts/{id}`). A post the caller may not see (another
 * user's draft, under owner access) is answered exactly as a missing one.
 */
export async function getPost(deps: GetPostDeps, id: string, caller: CallerSource = ANONYMOUS): Promise<Post> {
  const access = deps.postAccess ?? openPostAccess;
  const asked = access.reader(caller);
  const reader = isPending(asked) ? await asked : asked;
  const post = await deps.posts.findById(id);
  if (!post || !access.maySee(reader, post)) throw new DomainError('PostNotFound');
  return post;
}
