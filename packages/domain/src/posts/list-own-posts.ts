import { authenticate } from '../accounts/authenticate.js';
import type { UseCaseRequest } from '../accounts/use-case-request.js';
import { DomainError } from '../shared/errors.js';
import { parseInput } from '../shared/validation.js';
import type { PostPage } from './post.js';
import { postPage } from './post-page.js';
import { ListPostsQuerySchema } from './schemas.js';
import type { UseCaseDeps } from './use-case-deps.js';

/** What `listOwnPosts` reads: the credentials, and the query (`ListPostsQuerySchema`). */
export type ListOwnPostsRequest = Pick<UseCaseRequest, 'credentials' | 'query'>;

/**
 * One page of the caller's own posts, drafts included, newest first (docs/api.md,
 * `GET /me/posts`), with the query rules and the shape of the published list. Offered only where
 * the policy gives posts owners: elsewhere it is `NotOffered`, before anything is checked. "Own"
 * needs an account: the credentials must pass the `GET /me` rules, as for `GET /me` itself.
 */
export async function listOwnPosts(
  deps: Pick<UseCaseDeps, 'users' | 'tokens' | 'clock' | 'posts' | 'postAccess'>,
  request: ListOwnPostsRequest,
): Promise<PostPage> {
  if (!deps.postAccess.offers('listOwnPosts')) throw new DomainError('NotOffered');
  const { user } = await authenticate(deps, request);
  const { posts } = deps;
  return postPage(
    {
      slice: (offset, limit) => posts.listByAuthor(user.id, offset, limit),
      count: () => posts.countByAuthor(user.id),
    },
    parseInput(ListPostsQuerySchema, request.query === undefined ? {} : request.query),
  );
}
