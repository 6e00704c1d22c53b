import { parseInput } from '../shared/validation.js';
import type { PostPage } from './post.js';
import type { PostRepository } from './ports.js';
import { ListPostsQuerySchema } from './schemas.js';

export interface ListPublishedPostsDeps {
  readonly posts: PostRepository;
}

/**
 * One page of published posts, newest first (docs/api.md, `GET /posts`).
 * `query` holds the raw query values: a string each, or an array when a name was repeated.
 * A page whose offset no store could reach is answered from the count alone.
 */
export async function listPublishedPosts(deps: ListPublishedPostsDeps, query: unknown): Promise<PostPage> {
  const { page, perPage } = parseInput(ListPostsQuerySchema, query);
  const offset = (page - 1) * perPage;

  const { posts, total } = Number.isSafeInteger(offset)
    ? await deps.posts.listPublished(offset, perPage)
    : { posts: [], total: await deps.posts.countPublished() };

  return { posts, pagination: { total, page, perPage, lastPage: Math.max(1, Math.ceil(total / perPage)) } };
}
