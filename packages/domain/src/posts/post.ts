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

/**
 * A post's version: a revision counter its store keeps beside it, `FIRST_POST_VERSION` when the
 * post is stored and one more at every change. It is never one of the post's fields, and never
 * derived from `updatedAt` (two changes in one millisecond share that). A post stored before posts
 * had versions is at version 0 until its first change.
 */
export type PostVersion = number;

/** The version of a post as it is first stored. */
export const FIRST_POST_VERSION: PostVersion = 1;

/** One post with its version: what a read or a write of one post answers. */
export interface VersionedPost {
  /** The post's seven fields. */
  readonly post: Post;
  /** The version the post is at. */
  readonly version: PostVersion;
}

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
