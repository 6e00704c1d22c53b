import { uniqueIds } from '../shared/unique-ids.js';
import { FIRST_POST_VERSION, comparePostsNewestFirst, type NewPost, type Post, type PostVersion, type VersionedPost } from './post.js';
import type { PostRepository } from './ports.js';

type SortKey = Pick<Post, 'createdAt' | 'id'>;

/**
 * Posts kept sorted oldest first (new posts usually append), so a page newest first is a slice
 * from the end: O(log n + perPage) per request instead of a sort of every post. It holds the
 * posts themselves, so a page needs no look-up per post. A post's sort key never changes.
 */
function sortedPosts() {
  const items: Post[] = [];

  /** The index of the first key that sorts after `key` (oldest first). */
  function upperBound(key: SortKey): number {
    let low = 0;
    let high = items.length;
    while (low < high) {
      const mid = (low + high) >>> 1;
      if (comparePostsNewestFirst(key, items[mid] as SortKey) <= 0) low = mid + 1;
      else high = mid;
    }
    return low;
  }

  /** Where the post with `key` sits, or -1. */
  function indexOf(key: SortKey): number {
    const index = upperBound(key) - 1;
    return items[index]?.id === key.id ? index : -1;
  }

  return {
    get size() {
      return items.length;
    },
    add(post: Post): void {
      items.splice(upperBound(post), 0, post);
    },
    remove(post: SortKey): void {
      const index = indexOf(post);
      if (index >= 0) items.splice(index, 1);
    },
    /** Puts a new version of a post where the old one sits. */
    replace(post: Post): void {
      const index = indexOf(post);
      if (index >= 0) items[index] = post;
    },
    /** Newest first: skips `offset`, returns at most `limit`, with the total. */
    page(offset: number, limit: number): { posts: Post[]; total: number } {
      const end = Math.max(items.length - offset, 0);
      const start = Math.max(end - limit, 0);
      const posts: Post[] = [];
      for (let i = end - 1; i >= start; i--) posts.push(items[i] as Post);
      return { posts, total: items.length };
    },
  };
}

const NO_POSTS = sortedPosts();

/** Whether a post at `version` meets the condition of a write: none, or one of `versions`. */
function meets(version: PostVersion, versions: readonly PostVersion[] | undefined): boolean {
  return versions === undefined || versions.includes(version);
}

/**
 * Posts in process memory, with two kinds of sorted index beside the map by id: the published
 * posts (the public list) and each author's posts, drafts included (`GET /me/posts`). The map
 * holds each post with its version, as `findById` answers it. Stored posts are frozen and
 * replaced, never mutated; every write checks its condition and writes in one synchronous step.
 */
export function createInMemoryPostRepository(): PostRepository {
  const byId = new Map<string, VersionedPost>();
  const published = sortedPosts();
  const byAuthor = new Map<string, ReturnType<typeof sortedPosts>>();
  const nextId = uniqueIds();

  function authorIndex(authorId: string) {
    let index = byAuthor.get(authorId);
    if (!index) byAuthor.set(authorId, (index = sortedPosts()));
    return index;
  }

  function store(id: string, newPost: NewPost): Post {
    const post: Post = Object.freeze({
      id,
      title: newPost.title,
      body: newPost.body,
      authorId: newPost.authorId,
      published: newPost.published,
      createdAt: newPost.createdAt,
      updatedAt: newPost.updatedAt,
    });
    byId.set(id, Object.freeze({ post, version: FIRST_POST_VERSION }));
    authorIndex(post.authorId).add(post);
    if (post.published) published.add(post);
    return post;
  }

  return {
    async insert(newPost) {
      return store(nextId(), newPost);
    },
    newId: nextId,
    async insertAs(id, newPost) {
      return byId.has(id) ? null : store(id, newPost);
    },
    async findById(id) {
      return byId.get(id) ?? null;
    },
    async update(id, changes, versions) {
      const found = byId.get(id);
      if (!found || !meets(found.version, versions)) return null;
      const existing = found.post;
      const post: Post = Object.freeze({
        ...existing,
        title: changes.title ?? existing.title,
        body: changes.body ?? existing.body,
        published: changes.published ?? existing.published,
        updatedAt: Math.max(changes.updatedAt, existing.updatedAt),
      });
      const saved: VersionedPost = Object.freeze({ post, version: found.version + 1 });
      byId.set(id, saved);
      authorIndex(post.authorId).replace(post);
      if (existing.published && !post.published) published.remove(existing);
      if (!existing.published && post.published) published.add(post);
      if (existing.published && post.published) published.replace(post);
      return saved;
    },
    async delete(id, versions) {
      const found = byId.get(id);
      if (!found || !meets(found.version, versions)) return false;
      const existing = found.post;
      byId.delete(id);
      const own = authorIndex(existing.authorId);
      own.remove(existing);
      if (own.size === 0) byAuthor.delete(existing.authorId);
      if (existing.published) published.remove(existing);
      return true;
    },
    async deleteByAuthor(authorId) {
      const own = byAuthor.get(authorId);
      if (!own) return 0;
      const posts = own.page(0, own.size).posts;
      byAuthor.delete(authorId);
      for (const post of posts) {
        byId.delete(post.id);
        if (post.published) published.remove(post);
      }
      return posts.length;
    },
    async listPublished(offset, limit) {
      return published.page(offset, limit);
    },
    async countPublished() {
      return published.size;
    },
    async listByAuthor(authorId, offset, limit) {
      return (byAuthor.get(authorId) ?? NO_POSTS).page(offset, limit);
    },
    async countByAuthor(authorId) {
      return byAuthor.get(authorId)?.size ?? 0;
    },
  };
}
