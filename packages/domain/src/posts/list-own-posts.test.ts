import { describe, expect, it, vi } from 'vitest';
import { NO_CREDENTIALS, bearer } from '../accounts/credentials.js';
import { rejection } from '../test-support/rejection.js';
import { inMemoryDeps, signedUpAs } from '../test-support/signed-up.js';
import { listOwnPosts } from './list-own-posts.js';
import type { NewPost, Post } from './post.js';

const T0 = Date.UTC(2026, 0, 1);

/** Alice signed up on fresh deps; her posts are inserted straight into the store. */
async function setup() {
  const deps = inMemoryDeps();
  const alice = await signedUpAs(deps, 'alice@example.com');
  const newPost = (overrides: Partial<NewPost> = {}): NewPost => ({
    title: 'T',
    body: 'B',
    authorId: alice.userId,
    published: false,
    createdAt: T0,
    updatedAt: T0,
    ...overrides,
  });
  return { deps, posts: deps.posts, alice, newPost };
}

describe('listOwnPosts', () => {
  it("lists the caller's posts, drafts and published, newest first, and no one else's", async () => {
    const { deps, posts, alice, newPost } = await setup();
    const draft = await posts.insert(newPost({ title: 'draft', createdAt: T0 + 2 }));
    const live = await posts.insert(newPost({ title: 'live', createdAt: T0 + 1, published: true }));
    await posts.insert(newPost({ title: "bob's", authorId: 'bob-id', createdAt: T0 + 3, published: true }));
    expect(await listOwnPosts(deps, {}, alice.credentials)).toStrictEqual({
      posts: [draft, live],
      pagination: { total: 2, page: 1, perPage: 20, lastPage: 1 },
    });
  });

  it('pages as the published list does, and answers a page past the last with no posts', async () => {
    const { deps, posts, alice, newPost } = await setup();
    const inserted: Post[] = [];
    for (let i = 1; i <= 5; i++) inserted.push(await posts.insert(newPost({ title: `p${i}`, createdAt: T0 + i })));
    const second = await listOwnPosts(deps, { page: '2', perPage: '2' }, alice.credentials);
    expect(second).toStrictEqual({ posts: [inserted[2], inserted[1]], pagination: { total: 5, page: 2, perPage: 2, lastPage: 3 } });
    expect(await listOwnPosts(deps, { page: '9', perPage: '2' }, alice.credentials)).toStrictEqual({
      posts: [],
      pagination: { total: 5, page: 9, perPage: 2, lastPage: 3 },
    });
  });

  it('answers a page no store could reach from the count alone', async () => {
    const { deps, posts, alice, newPost } = await setup();
    await posts.insert(newPost());
    const listSpy = vi.spyOn(posts, 'listByAuthor');
    const page = await listOwnPosts(deps, { page: String(Number.MAX_SAFE_INTEGER), perPage: '100' }, alice.credentials);
    expect(page.posts).toEqual([]);
    expect(page.pagination.total).toBe(1);
    expect(listSpy).not.toHaveBeenCalled();
  });

  it('refuses by the GET /me rules before validating the query: no credentials, a bad token', async () => {
    const { deps } = await setup();
    const missing = await rejection(listOwnPosts(deps, { page: '0' }, NO_CREDENTIALS));
    expect([missing.code, missing.message]).toEqual(['MissingAuthorization', 'Missing authorization header']);
    expect((await rejection(listOwnPosts(deps, { page: '0' }, bearer('garbage')))).code).toBe('InvalidToken');
  });

  it('validates the query with every problem listed', async () => {
    const { deps, alice } = await setup();
    expect((await rejection(listOwnPosts(deps, { page: '0', perPage: '101' }, alice.credentials))).issues).toEqual([
      { path: 'page', message: 'must be at least 1' },
      { path: 'perPage', message: 'must be at most 100' },
    ]);
  });
});
