import type { NewPost, Post, PostChanges } from './post.js';

/** Where posts live. Any string is a valid argument for `id`; one that names no post gives null/false. */
export interface PostRepository {
  insert(post: NewPost): Promise<Post>;
  findById(id: string): Promise<Post | null>;
  /** Applies the changes and returns the saved post, or null when the post is gone. */
  update(id: string, changes: PostChanges): Promise<Post | null>;
  /** Deletes the post; false when there was none. */
  delete(id: string): Promise<boolean>;
  /**
   * Published posts newest first (see `comparePostsNewestFirst`), skipping `offset` and
   * returning at most `limit`, with the total number of published posts.
   */
  listPublished(offset: number, limit: number): Promise<{ posts: readonly Post[]; total: number }>;
  /** The number of published posts. */
  countPublished(): Promise<number>;
  /**
   * The posts whose `authorId` is `authorId`, drafts included, in the same order and with the
   * same paging as `listPublished`, with their total.
   */
  listByAuthor(authorId: string, offset: number, limit: number): Promise<{ posts: readonly Post[]; total: number }>;
  /** The number of posts whose `authorId` is `authorId`. */
  countByAuthor(authorId: string): Promise<number>;
  /** Deletes every post whose `authorId` is `authorId` (an account being deleted); answers how many. */
  deleteByAuthor(authorId: string): Promise<number>;
}
