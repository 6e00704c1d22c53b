/** A blog post, with exactly the seven fields every response carries. */
export interface Post {
  readonly id: string;
  readonly title: string;
  readonly body: string;
  readonly authorId: string;
  readonly published: boolean;
  readonly createdAt: number;
  readonly updatedAt: number;
}

/** What a repository needs to store a new post; it assigns the id. */
export type NewPost = Omit<Post, 'id'>;

/** The fields a PATCH may change, plus the time of the save. */
export interface PostChanges {
  readonly title?: string;
  readonly body?: string;
  readonly published?: boolean;
  readonly updatedAt: number;
}

/** The pagination object of `GET /posts` (docs/api.md). */
export interface Pagination {
  readonly total: number;
  readonly page: number;
  readonly perPage: number;
  readonly lastPage: number;
}

/** One page of a list of posts, newest first: the published list, or an author's own. */
export interface PostPage {
  readonly posts: readonly Post[];
  readonly pagination: Pagination;
}

/**
 * The list order: `createdAt` descending, then `id` descending, so equal times page stably.
 * Negative when `a` comes first.
 */
export function comparePostsNewestFirst(a: Pick<Post, 'createdAt' | 'id'>, b: Pick<Post, 'createdAt' | 'id'>): number {
  if (a.createdAt !== b.createdAt) return b.createdAt - a.createdAt;
  return a.id < b.id ? 1 : a.id > b.id ? -1 : 0;
}
