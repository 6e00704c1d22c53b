import type { ListPostsQuery } from './schemas.js';
import type { Post, PostPage } from './post.js';

/** How a list reads one slice of its posts (newest first) with its total, and its total alone. */
export interface PostList {
  slice(offset: number, limit: number): Promise<{ posts: readonly Post[]; total: number }>;
  count(): Promise<number>;
}

/**
 * The page `query` asks for, with its pagination object. A page whose offset no store could
 * reach (past 2^53) is answered from the count alone: it is past the last page anyway.
 */
export async function postPage(list: PostList, { page, perPage }: ListPostsQuery): Promise<PostPage> {
  const offset = (page - 1) * perPage;
  const { posts, total } = Number.isSafeInteger(offset)
    ? await list.slice(offset, perPage)
    : { posts: [], total: await list.count() };
  return { posts, pagination: { total, page, perPage, lastPage: Math.max(1, Math.ceil(total / perPage)) } };
}
