import { sequentialIds } from '../shared/sequential-ids.js';
import { comparePostsNewestFirst, type Post } from './post.js';
import type { PostRepository } from './ports.js';

type SortKey = Pick<Post, 'createdAt' | 'id'>;

/**
 * Posts in process memory. Published posts are also kept in one array sorted oldest first
 * (new posts usually append), so a page is a slice from the end: O(log n + perPage) per
 * request instead of a sort of every post. The array holds the posts themselves, so a page
 * needs no look-up per post. Stored posts are frozen and replaced, never mutated.
 */
export function createInMemoryPostRepository(): PostRepository {
  const byId = new Map<string, Post>();
  const published: Post[] = [];
  const nextId = sequentialIds();

  /** The index of the first key that sorts after `key` (oldest first). */
  function upperBound(key: SortKey): number {
    let low = 0;
    let high = published.length;
    while (low < high) {
      const mid = (low + high) >>> 1;
      if (comparePostsNewestFirst(key, published[mid] as SortKey) <= 0) low = mid + 1;
      else high = mid;
    }
    return low;
  }

  function addToPublished(post: Post): void {
    published.splice(upperBound(post), 0, post);
  }

  /** Where `post` (by its sort key, which never changes) sits in `published`, or -1. */
  function publishedIndex(post: SortKey): number {
    const index = upperBound(post) - 1;
    return published[index]?.id === post.id ? index : -1;
  }

  function removeFromPublished(post: Post): void {
    const index = publishedIndex(post);
    if (index >= 0) published.splice(index, 1);
  }

  return {
    async insert(newPost) {
      const post: Post = Object.freeze({
        id: nextId(),
        title: newPost.title,
        body: newPost.body,
        authorId: newPost.authorId,
        published: newPost.published,
        createdAt: newPost.createdAt,
        updatedAt: newPost.updatedAt,
      });
      byId.set(post.id, post);
      if (post.published) addToPublished(post);
      return post;
    },
    async findById(id) {
      return byId.get(id) ?? null;
    },
    async update(id, changes) {
      const existing = byId.get(id);
      if (!existing) return null;
      const post: Post = Object.freeze({
        ...existing,
        title: changes.title ?? existing.title,
        body: changes.body ?? existing.body,
        published: changes.published ?? existing.published,
        updatedAt: changes.updatedAt,
      });
      byId.set(id, post);
      if (existing.published && !post.published) removeFromPublished(existing);
      if (!existing.published && post.published) addToPublished(post);
      if (existing.published && post.published) {
        const index = publishedIndex(existing);
        if (index >= 0) published[index] = post;
      }
      return post;
    },
    async delete(id) {
      const existing = byId.get(id);
      if (!existing) return false;
      byId.delete(id);
      if (existing.published) removeFromPublished(existing);
      return true;
    },
    async listPublished(offset, limit) {
      const end = Math.max(published.length - offset, 0);
      const start = Math.max(end - limit, 0);
      const posts: Post[] = [];
      for (let i = end - 1; i >= start; i--) posts.push(published[i] as Post);
      return { posts, total: published.length };
    },
    async countPublished() {
      return published.length;
    },
  };
}
