import { resolveCaller, type CallerSource } from '../accounts/caller.js';
import { DomainError } from '../shared/errors.js';
import { parseInput } from '../shared/validation.js';
import type { PostPage } from './post.js';
import { postPage } from './post-page.js';
import type { PostRepository } from './ports.js';
import { ListPostsQuerySchema } from './schemas.js';

export interface ListOwnPostsDeps {
  readonly posts: PostRepository;
}

/**
 * One page of the caller's own posts, drafts included, newest first (docs/api.md,
 * `GET /me/posts`), with the query rules and the shape of the published list. The caller must
 * be a signed-in user: "own" means nothing for anyone else.
 */
export async function listOwnPosts(deps: ListOwnPostsDeps, query: unknown, caller: CallerSource): Promise<PostPage> {
  const owner = await resolveCaller(caller);
  if (owner.kind === 'anonymous') throw new DomainError('MissingAuthorization');
  const { posts } = deps;
  return postPage(
    {
      slice: (offset, limit) => posts.listByAuthor(owner.userId, offset, limit),
      count: () => posts.countByAuthor(owner.userId),
    },
    parseInput(ListPostsQuerySchema, query),
  );
}
