import { randomBytes, randomUUID } from 'node:crypto';
import type { Dataset, Post, Session, User } from './dataset.js';

/** A new post as a request gives it; the store assigns the id. */
export type NewPost = Omit<Post, 'id'>;

/** A post with its version (1 when stored), as inkwell answers a read or a create. */
export interface StoredPost {
  readonly post: Post;
  readonly version: number;
}

/** The `ETag` of a post at `version`, as inkwell writes it. */
export const entityTag = (version: number) => `"${version}"`;

/** An account found with the session a token names (null when that session is not live). */
export interface UserWithSession {
  readonly user: User;
  readonly session: Session | null;
}

/**
 * The posts and accounts of every server inkwell is compared with, held as inkwell's memory store
 * holds them, so a write or a read costs each server what it costs inkwell's store: frozen posts
 * in a map by id, beside two kinds of list sorted oldest first (the published posts, and each
 * author's posts, drafts included), so a page newest first is a slice from the end; accounts in a
 * map by id with their sessions. The map by id holds each post with its version, as inkwell's does. Ids are 24 hex digits, a random prefix and a counter. Written
 * apart from the memory store on purpose, the same binary search included: a compared server runs
 * none of inkwell's code.
 */
export interface PostStore {
  findPost(id: string): StoredPost | undefined;
  /** Newest first: skips `offset`, at most `limit`, with the total. */
  listPublished(offset: number, limit: number): { posts: Post[]; total: number };
  insertPost(post: NewPost): StoredPost;
  findUserWithSession(userId: string, sessionId: string, now: number): UserWithSession | null;
  /** How many posts the store holds, drafts included. */
  readonly postCount: number;
}

/** createdAt descending, then id descending; negative when `a` comes first. */
function newestFirst(a: Post, b: Post): number {
  if (a.createdAt !== b.createdAt) return b.createdAt - a.createdAt;
  return a.id < b.id ? 1 : a.id > b.id ? -1 : 0;
}

/** Posts sorted oldest first, inserted where they belong. */
function sortedPosts() {
  const items: Post[] = [];
  const upperBound = (post: Post) => {
    let low = 0;
    let high = items.length;
    while (low < high) {
      const mid = (low + high) >>> 1;
      if (newestFirst(post, items[mid] as Post) <= 0) low = mid + 1;
      else high = mid;
    }
    return low;
  };
  return {
    get size() {
      return items.length;
    },
    add(post: Post): void {
      items.splice(upperBound(post), 0, post);
    },
    page(offset: number, limit: number): { posts: Post[]; total: number } {
      const end = Math.max(items.length - offset, 0);
      const start = Math.max(end - limit, 0);
      const posts: Post[] = [];
      for (let i = end - 1; i >= start; i--) posts.push(items[i] as Post);
      return { posts, total: items.length };
    },
  };
}

/** A store holding what `dataset` holds. */
export function createStore(dataset: Dataset): PostStore {
  const byId = new Map<string, StoredPost>();
  const published = sortedPosts();
  const byAuthor = new Map<string, ReturnType<typeof sortedPosts>>();
  const accounts = new Map<string, { user: User; sessions: Session[] }>();
  const prefix = randomBytes(6).toString('hex');
  let last = 0;

  const add = (post: Post) => {
    const stored = Object.freeze({ post, version: 1 });
    byId.set(post.id, stored);
    let own = byAuthor.get(post.authorId);
    if (!own) byAuthor.set(post.authorId, (own = sortedPosts()));
    own.add(post);
    if (post.published) published.add(post);
    return stored;
  };
  for (const post of dataset.posts) add(Object.freeze({ ...post }));
  for (const { user, sessions } of dataset.accounts) accounts.set(user.id, { user: Object.freeze({ ...user }), sessions: [...sessions] });

  return {
    findPost: (id) => byId.get(id),
    listPublished: (offset, limit) => published.page(offset, limit),
    insertPost: (post) =>
      add(
        Object.freeze({
          id: prefix + (++last).toString(16).padStart(12, '0'),
          title: post.title,
          body: post.body,
          authorId: post.authorId,
          published: post.published,
          createdAt: post.createdAt,
          updatedAt: post.updatedAt,
        }),
      ),
    findUserWithSession(userId, sessionId, now) {
      const account = accounts.get(userId);
      if (!account) return null;
      return { user: account.user, session: account.sessions.find((s) => s.id === sessionId && s.expiresAt > now) ?? null };
    },
    get postCount() {
      return byId.size;
    },
  };
}

/** The user object: exactly `{ id, email, name }`, the only shape of an account an answer carries. */
export function publicUser(user: User): { id: string; email: string; name: string } {
  return { id: user.id, email: user.email, name: user.name };
}

/** The pagination object of a list page: `lastPage` is at least 1. */
export function pagination(total: number, page: number, perPage: number) {
  return { total, page, perPage, lastPage: Math.max(1, Math.ceil(total / perPage)) };
}

/** An incoming id is kept only when it is short and plain, as inkwell keeps it. */
const SANE_REQUEST_ID = /^[A-Za-z0-9._-]{1,64}$/;

/** The request id an answer carries: the client's `X-Request-Id` when sane, a new UUID otherwise. */
export function requestIdFor(sent: string | string[] | undefined): string {
  return typeof sent === 'string' && SANE_REQUEST_ID.test(sent) ? sent : randomUUID();
}

/**
 * The request id by the rule of Hono's `requestId()` middleware, with its defaults: the client's
 * `X-Request-Id` when it has at most 255 characters, all of them word characters, `-` or `=`, a
 * new UUID otherwise.
 */
export function honoRequestId(sent: string | undefined): string {
  return !sent || sent.length > 255 || /[^\w\-=]/.test(sent) ? randomUUID() : sent;
}
