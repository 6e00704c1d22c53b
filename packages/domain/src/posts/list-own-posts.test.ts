import { describe, expect, it, vi } from 'vitest';
import { NO_CREDENTIALS, bearer } from '../accounts/credentials.js';
import { rejection } from '../test-support/rejection.js';
import { inMemoryDeps, signedUpAs } from '../test-support/signed-up.js';
import { listOwnPosts } from './list-own-posts.js';
import type { NewPost, Post } from './post.js';
import { openPostAccess, ownerPostAccess } from './post-access.js';

const T0 = Date.UTC(2026, 0, 1);

/** Alice signed up on fresh deps where posts have owners; her posts are inserted straight into the store. */
async function setup() {
  const deps = { ...inMemoryDeps(), postAccess: ownerPostAccess };
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
    expect(await listOwnPosts(deps, { query: {}, credentials: alice.credentials })).toStrictEqual({
      posts: [draft, live],
      pagination: { total: 2, page: 1, perPage: 20, lastPage: 1 },
    });
  });

  it('pages as the published list does, and answers a page past the last with no posts', async () => {
    const { deps, posts, alice, newPost } = await setup();
    const inserted: Post[] = [];
    for (let i = 1; i <= 5; i++) inserted.push(await posts.insert(newPost({ title: `p${i}`, createdAt: T0 + i })));
    const second = await listOwnPosts(deps, { query: { page: '2', perPage: '2' }, credentials: alice.credentials });
    expect(second).toStrictEqual({ posts: [inserted[2], inserted[1]], pagination: { total: 5, page: 2, perPage: 2, lastPage: 3 } });
    expect(await listOwnPosts(deps, { query: { page: '9', perPage: '2' }, credentials: alice.credentials })).toStrictEqual({
      posts: [],
      pagination: { total: 5, page: 9, perPage: 2, lastPage: 3 },
    });
  });

  it('answers a page no store could reach from the count alone', async () => {
    const { deps, posts, alice, newPost } = await setup();
    await posts.insert(newPost());
    const listSpy = vi.spyOn(posts, 'listByAuthor');
    const page = await listOwnPosts(deps, { query: { page: String(Number.MAX_SAFE_INTEGER), perPage: '100' }, credentials: alice.credentials });
    expect(page.posts).toEqual([]);
    expect(page.pagination.total).toBe(1);
    expect(listSpy).not.toHaveBeenCalled();
  });

  it('refuses by the GET /me rules before validating the query: no credentials, a bad token', async () => {
    const { deps } = await setup();
    const missing = await rejection(listOwnPosts(deps, { query: { page: '0' }, credentials: NO_CREDENTIALS }));
    expect(missing.code).toBe('MissingAuthorization');
    expect((await rejection(listOwnPosts(deps, { query: { page: '0' }, credentials: bearer('garbage') }))).code).toBe('InvalidToken');
  });

  it('is not offered where posts have no owners: NotOffered, before the credentials or the query are looked at', async () => {
    const { deps, alice } = await setup();
    const open = { ...deps, postAccess: openPostAccess };
    const verify = vi.spyOn(deps.tokens, 'verify');
    for (const credentials of [alice.credentials, NO_CREDENTIALS, bearer('garbage')]) {
      expect((await rejection(listOwnPosts(open, { query: { page: '0' }, credentials }))).code).toBe('NotOffered');
    }
    expect(verify).not.toHaveBeenCalled();
  });

  it('validates the query with every problem listed', async () => {
    const { deps, alice } = await setup();
    expect((await rejection(listOwnPosts(deps, { query: { page: '0', perPage: '101' }, credentials: alice.credentials }))).issues).toEqual([
      { path: 'page', message: 'must be at least 1' },
      { path: 'perPage', message: 'must be at most 100' },
    ]);
  });
});
