import type { AuthenticateDeps } from '../accounts/authenticate.js';
import { authenticateCaller } from '../accounts/caller.js';
import { NO_CREDENTIALS, type Credentials } from '../accounts/credentials.js';
import { parseInput } from '../shared/validation.js';
import type { PostPage } from './post.js';
import { openPostAccess, type PostAccessPolicy } from './post-access.js';
import { postPage } from './post-page.js';
import type { PostRepository } from './ports.js';
import { ListPostsQuerySchema } from './schemas.js';

export interface ListPublishedPostsDeps extends AuthenticateDeps {
  readonly posts: PostRepository;
  /** The access policy: the list is the same under every one, but credentials sent must be valid under owner access. */
  readonly postAccess?: PostAccessPolicy;
}

/**
 * One page of published posts, newest first (docs/api.md, `GET /posts`), for anyone.
 * `query` holds the raw query values: a string each, or an array when a name was repeated.
 */
export async function listPublishedPosts(
  deps: ListPublishedPostsDeps,
  query: unknown,
  credentials: Credentials = NO_CREDENTIALS,
): Promise<PostPage> {
  const access = deps.postAccess ?? openPostAccess;
  // The list is the same for every reader, but credentials that must be checked must pass.
  if (access.reader(credentials) === null) await authenticateCaller(deps, credentials);
  const { posts } = deps;
  return postPage(
    { slice: (offset, limit) => posts.listPublished(offset, limit), count: () => posts.countPublished() },
    parseInput(ListPostsQuerySchema, query),
  );
}
