import { describe, expect, it, vi } from 'vitest';
import { ANONYMOUS, type Caller } from '../accounts/caller.js';
import { DomainError } from '../shared/errors.js';
import { rejection } from '../test-support/rejection.js';
import { createInMemoryPostRepository } from './in-memory-post-repository.js';
import { listOwnPosts } from './list-own-posts.js';
import type { NewPost, Post } from './post.js';

const T0 = Date.UTC(2026, 0, 1);
const alice: Caller = { kind: 'user', userId: 'alice-id' };

function newPost(overrides: Partial<NewPost> = {}): NewPost {
  return { title: 'T', body: 'B', authorId: 'alice-id', published: false, createdAt: T0, updatedAt: T0, ...overrides };
}

describe('listOwnPosts', () => {
  it("lists the caller's posts, drafts and published, newest first, and no one else's", async () => {
    const posts = createInMemoryPostRepository();
    const draft = await posts.insert(newPost({ title: 'draft', createdAt: T0 + 2 }));
    const live = await posts.insert(newPost({ title: 'live', createdAt: T0 + 1, published: true }));
    await posts.insert(newPost({ title: "bob's", authorId: 'bob-id', createdAt: T0 + 3, published: true }));
    expect(await listOwnPosts({ posts }, {}, alice)).toStrictEqual({
      posts: [draft, live],
      pagination: { total: 2, page: 1, perPage: 20, lastPage: 1 },
    });
  });

  it('pages as the published list does, and answers a page past the last with no posts', async () => {
    const posts = createInMemoryPostRepository();
    const inserted: Post[] = [];
    for (let i = 1; i <= 5; i++) inserted.push(await posts.insert(newPost({ title: `p${i}`, createdAt: T0 + i })));
    const second = await listOwnPosts({ posts }, { page: '2', perPage: '2' }, alice);
    expect(second).toStrictEqual({ posts: [inserted[2], inserted[1]], pagination: { total: 5, page: 2, perPage: 2, lastPage: 3 } });
    expect(await listOwnPosts({ posts }, { page: '9', perPage: '2' }, alice)).toStrictEqual({
      posts: [],
      pagination: { total: 5, page: 9, perPage: 2, lastPage: 3 },
    });
  });

  it('answers a page no store could reach from the count alone', async () => {
    const posts = createInMemoryPostRepository();
    await posts.insert(newPost());
    const listSpy = vi.spyOn(posts, 'listByAuthor');
    const page = await listOwnPosts({ posts }, { page: String(Number.MAX_SAFE_INTEGER), perPage: '100' }, alice);
    expect(page.posts).toEqual([]);
    expect(page.pagination.total).toBe(1);
    expect(listSpy).not.toHaveBeenCalled();
  });

  it('refuses an anonymous caller with MissingAuthorization before validating the query', async () => {
    const posts = createInMemoryPostRepository();
    const error = await rejection(listOwnPosts({ posts }, { page: '0' }, ANONYMOUS));
    expect([error.code, error.message]).toEqual(['MissingAuthorization', 'Missing authorization header']);
  });

  it("passes on the caller's refusal (a bad token)", async () => {
    const posts = createInMemoryPostRepository();
    const source = async (): Promise<Caller> => {
      throw new DomainError('InvalidToken');
    };
    expect((await rejection(listOwnPosts({ posts }, {}, source))).code).toBe('InvalidToken');
  });

  it('validates the query with every problem listed', async () => {
    const posts = createInMemoryPostRepository();
    expect((await rejection(listOwnPosts({ posts }, { page: '0', perPage: '101' }, alice))).issues).toEqual([
      { path: 'page', message: 'must be at least 1' },
      { path: 'perPage', message: 'must be at most 100' },
    ]);
  });
});
