import { authenticateCaller } from '../accounts/caller.js';
import { NO_CREDENTIALS } from '../accounts/credentials.js';
import type { UseCaseRequest } from '../accounts/use-case-request.js';
import { parseInput } from '../shared/validation.js';
import type { PostPage } from './post.js';
import { postPage } from './post-page.js';
import { ListPostsQuerySchema } from './schemas.js';
import type { UseCaseDeps } from './use-case-deps.js';

/** What `listPublishedPosts` reads: the credentials (checked where the policy says so), and the query (`ListPostsQuerySchema`). */
export type ListPublishedPostsRequest = Pick<UseCaseRequest, 'credentials' | 'query'>;

/**
 * One page of published posts, newest first (docs/api.md, `GET /posts`), for anyone: the list is
 * the same under every policy, but credentials that the policy checks must pass.
 */
export async function listPublishedPosts(
  deps: Pick<UseCaseDeps, 'users' | 'tokens' | 'clock' | 'posts' | 'postAccess'>,
  request: ListPublishedPostsRequest,
): Promise<PostPage> {
  if (deps.postAccess.reader(request.credentials ?? NO_CREDENTIALS) === null) await authenticateCaller(deps, request);
  const { posts } = deps;
  return postPage(
    { slice: (offset, limit) => posts.listPublished(offset, limit), count: () => posts.countPublished() },
    parseInput(ListPostsQuerySchema, request.query === undefined ? {} : request.query),
  );
}
