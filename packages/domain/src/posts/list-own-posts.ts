import { authenticate, type AuthenticateDeps } from '../accounts/authenticate.js';
import type { Credentials } from '../accounts/credentials.js';
import { parseInput } from '../shared/validation.js';
import type { PostPage } from './post.js';
import { postPage } from './post-page.js';
import type { PostRepository } from './ports.js';
import { ListPostsQuerySchema } from './schemas.js';

export interface ListOwnPostsDeps extends AuthenticateDeps {
  readonly posts: PostRepository;
}

/**
 * One page of the caller's own posts, drafts included, newest first (docs/api.md,
 * `GET /me/posts`), with the query rules and the shape of the published list. "Own" needs an
 * account: the credentials must pass the `GET /me` rules, as for `GET /me` itself.
 */
export async function listOwnPosts(deps: ListOwnPostsDeps, query: unknown, credentials: Credentials): Promise<PostPage> {
  const { user } = await authenticate(deps, credentials);
  const { posts } = deps;
  return postPage(
    {
      slice: (offset, limit) => posts.listByAuthor(user.id, offset, limit),
      count: () => posts.countByAuthor(user.id),
    },
    parseInput(ListPostsQuerySchema, query),
  );
}
