import { inMemoryDeps } from '../test-support/signed-up.js';
import { describe, expect, it, vi } from 'vitest';
import { listPublishedPosts } from './list-published-posts.js';
import type { NewPost, Post } from './post.js';
import type { PostRepository } from './ports.js';
import { rejection } from '../test-support/rejection.js';

const T0 = Date.UTC(2026, 0, 1);

function newPost(overrides: Partial<NewPost> = {}): NewPost {
  return { title: 'T', body: 'B', authorId: 'a1', published: true, createdAt: T0, updatedAt: T0, ...overrides };
}

/** `count` published posts, createdAt T0+1 … T0+count; returned oldest first. */
async function seed(posts: PostRepository, count: number): Promise<Post[]> {
  const inserted: Post[] = [];
  for (let i = 1; i <= count; i++) inserted.push(await posts.insert(newPost({ title: `p${i}`, createdAt: T0 + i })));
  return inserted;
}

function setup() {
  const deps = inMemoryDeps();
  return { posts: deps.posts, deps };
}

describe('listPublishedPosts', () => {
  it('returns only published posts, with the seven fields each', async () => {
    const { deps, posts } = setup();
    const a = await posts.insert(newPost({ title: 'a', createdAt: T0 + 1 }));
    await posts.insert(newPost({ title: 'draft', createdAt: T0 + 2, published: false }));
    const c = await posts.insert(newPost({ title: 'c', createdAt: T0 + 3 }));
    const page = await listPublishedPosts(deps, { query: {} });
    expect(page).toStrictEqual({
      posts: [c, a],
      pagination: { total: 2, page: 1, perPage: 20, lastPage: 1 },
    });
  });

  it('orders by createdAt descending, then id descending for equal createdAt', async () => {
    const { deps, posts } = setup();
    const a = await posts.insert(newPost({ title: 'a', createdAt: T0 + 1 }));
    const b = await posts.insert(newPost({ title: 'b', createdAt: T0 + 3 }));
    const c = await posts.insert(newPost({ title: 'c', createdAt: T0 + 2 }));
    const d = await posts.insert(newPost({ title: 'd', createdAt: T0 + 3 }));
    const e = await posts.insert(newPost({ title: 'e', createdAt: T0 + 3 }));
    // Ids increase with insertion in the in-memory store, so among b, d, e the order is e, d, b.
    expect([b.id, d.id, e.id].sort()).toEqual([b.id, d.id, e.id]);
    const all = await listPublishedPosts(deps, { query: {} });
    expect(all.posts.map((p) => p.title)).toEqual(['e', 'd', 'b', 'c', 'a']);

    const pages = await Promise.all(['1', '2', '3'].map((page) => listPublishedPosts(deps, { query: { page, perPage: '2' } })));
    expect(pages.map((p) => p.posts.map((post) => post.title))).toEqual([['e', 'd'], ['b', 'c'], ['a']]);
    expect(pages.flatMap((p) => p.posts)).toStrictEqual([e, d, b, c, a]);
  });

  it('defaults to page 1 and perPage 20', async () => {
    const { deps, posts } = setup();
    const inserted = await seed(posts, 25);
    const page = await listPublishedPosts(deps, { query: {} });
    expect(page.pagination).toStrictEqual({ total: 25, page: 1, perPage: 20, lastPage: 2 });
    expect(page.posts.map((p) => p.title)).toEqual(inserted.slice(5).reverse().map((p) => p.title));
  });

  it('uses the default for whichever parameter is absent', async () => {
    const { deps, posts } = setup();
    await seed(posts, 25);
    expect((await listPublishedPosts(deps, { query: { page: '2' } })).pagination).toStrictEqual({
      total: 25,
      page: 2,
      perPage: 20,
      lastPage: 2,
    });
    expect((await listPublishedPosts(deps, { query: { perPage: '10' } })).pagination).toStrictEqual({
      total: 25,
      page: 1,
      perPage: 10,
      lastPage: 3,
    });
  });

  it('ignores unknown query parameters', async () => {
    const { deps, posts } = setup();
    await seed(posts, 3);
    const page = await listPublishedPosts(deps, { query: { sort: 'asc', published: 'false', page: '1' } });
    expect(page.pagination).toStrictEqual({ total: 3, page: 1, perPage: 20, lastPage: 1 });
    expect(page.posts.map((p) => p.title)).toEqual(['p3', 'p2', 'p1']);
  });

  describe('pagination arithmetic: lastPage = max(1, ceil(total / perPage))', () => {
    it.each([
      [0, 20, 1],
      [0, 1, 1],
      [1, 20, 1],
      [1, 1, 1],
      [20, 20, 1],
      [20, 3, 7],
      [20, 100, 1],
      [21, 20, 2],
      [21, 1, 21],
      [21, 7, 3],
      [100, 20, 5],
      [100, 7, 15],
      [100, 33, 4],
      [100, 100, 1],
      [100, 1, 100],
    ])('total %i, perPage %i: lastPage %i, and the pages hold every post once', async (total, perPage, lastPage) => {
      const { deps, posts } = setup();
      const inserted = await seed(posts, total);
      const seen: string[] = [];
      for (let page = 1; page <= lastPage; page++) {
        const result = await listPublishedPosts(deps, { query: { page: String(page), perPage: String(perPage) } });
        expect(result.pagination).toStrictEqual({ total, page, perPage, lastPage });
        const expectedSize = page < lastPage ? perPage : total - (lastPage - 1) * perPage;
        expect(result.posts).toHaveLength(expectedSize);
        seen.push(...result.posts.map((p) => p.id));
      }
      expect(seen).toEqual(inserted.map((p) => p.id).reverse());
    });
  });

  it('answers a page past the end with no posts and the requested page echoed', async () => {
    const { deps, posts } = setup();
    await seed(posts, 21);
    expect(await listPublishedPosts(deps, { query: { page: '3', perPage: '20' } })).toStrictEqual({
      posts: [],
      pagination: { total: 21, page: 3, perPage: 20, lastPage: 2 },
    });
    expect(await listPublishedPosts(deps, { query: { page: '1000000' } })).toStrictEqual({
      posts: [],
      pagination: { total: 21, page: 1_000_000, perPage: 20, lastPage: 2 },
    });
  });

  it('answers page 2 of an empty list with no posts and lastPage 1', async () => {
    const { deps } = setup();
    expect(await listPublishedPosts(deps, { query: { page: '2' } })).toStrictEqual({
      posts: [],
      pagination: { total: 0, page: 2, perPage: 20, lastPage: 1 },
    });
  });

  it('answers a page whose offset is not a safe integer from the count alone', async () => {
    const { deps, posts } = setup();
    await seed(posts, 3);
    const listSpy = vi.spyOn(posts, 'listPublished');
    const countSpy = vi.spyOn(posts, 'countPublished');
    const result = await listPublishedPosts(deps, { query: { page: String(Number.MAX_SAFE_INTEGER), perPage: '100' } });
    expect(result).toStrictEqual({
      posts: [],
      pagination: { total: 3, page: Number.MAX_SAFE_INTEGER, perPage: 100, lastPage: 1 },
    });
    expect(listSpy).not.toHaveBeenCalled();
    expect(countSpy).toHaveBeenCalledTimes(1);
  });

  it('still asks the store for a far page whose offset is a safe integer', async () => {
    const { deps, posts } = setup();
    await seed(posts, 3);
    const listSpy = vi.spyOn(posts, 'listPublished');
    const result = await listPublishedPosts(deps, { query: { page: String(Number.MAX_SAFE_INTEGER), perPage: '1' } });
    expect(listSpy).toHaveBeenCalledWith(Number.MAX_SAFE_INTEGER - 1, 1);
    expect(result.posts).toEqual([]);
    expect(result.pagination).toStrictEqual({ total: 3, page: Number.MAX_SAFE_INTEGER, perPage: 1, lastPage: 3 });
  });

  it('asks the store for offset (page - 1) * perPage and limit perPage', async () => {
    const { deps, posts } = setup();
    const listSpy = vi.spyOn(posts, 'listPublished');
    await listPublishedPosts(deps, { query: { page: '3', perPage: '7' } });
    expect(listSpy).toHaveBeenCalledWith(14, 7);
  });

  describe('query validation', () => {
    it.each(['100', '1', '01', '007'])('accepts perPage %j', async (perPage) => {
      const { deps } = setup();
      const result = await listPublishedPosts(deps, { query: { perPage } });
      expect(result.pagination.perPage).toBe(Number(perPage));
    });

    it('reads leading zeros as decimal: page "01" is page 1, "010" is page 10', async () => {
      const { deps } = setup();
      expect((await listPublishedPosts(deps, { query: { page: '01' } })).pagination.page).toBe(1);
      expect((await listPublishedPosts(deps, { query: { page: '010' } })).pagination.page).toBe(10);
    });

    it('accepts page Number.MAX_SAFE_INTEGER', async () => {
      const { deps } = setup();
      const result = await listPublishedPosts(deps, { query: { page: '9007199254740991' } });
      expect(result.pagination.page).toBe(Number.MAX_SAFE_INTEGER);
    });

    const invalidForBoth: [string, unknown, string][] = [
      ['abc', 'abc', 'must be a positive whole number'],
      ['1.5', '1.5', 'must be a positive whole number'],
      ['0', '0', 'must be at least 1'],
      ['00', '00', 'must be at least 1'],
      ['-1', '-1', 'must be a positive whole number'],
      ['1e2', '1e2', 'must be a positive whole number'],
      ['empty', '', 'must be a positive whole number'],
      ['leading space', ' 1', 'must be a positive whole number'],
      ['trailing space', '1 ', 'must be a positive whole number'],
      ['+1', '+1', 'must be a positive whole number'],
      ['0x10', '0x10', 'must be a positive whole number'],
      ['Arabic-Indic digit', '\u0661', 'must be a positive whole number'],
      ['repeated parameter', ['1', '2'], 'must be a single value'],
      ['number type', 2, 'must be a single value'],
      ['null', null, 'must be a single value'],
    ];

    it.each(invalidForBoth)('refuses page %s', async (_, page, message) => {
      const { deps, posts } = setup();
      const listSpy = vi.spyOn(posts, 'listPublished');
      const error = await rejection(listPublishedPosts(deps, { query: { page } }));
      expect(error.code).toBe('ValidationFailed');
      expect(error.issues).toEqual([{ path: 'page', message }]);
      expect(listSpy).not.toHaveBeenCalled();
    });

    it.each(invalidForBoth)('refuses perPage %s', async (_, perPage, message) => {
      const { deps } = setup();
      const error = await rejection(listPublishedPosts(deps, { query: { perPage } }));
      expect(error.issues).toEqual([{ path: 'perPage', message }]);
    });

    it.each(['101', '1000', '0101'])('refuses perPage %j (over 100)', async (perPage) => {
      const { deps } = setup();
      const error = await rejection(listPublishedPosts(deps, { query: { perPage } }));
      expect(error.issues).toEqual([{ path: 'perPage', message: 'must be at most 100' }]);
    });

    it.each(['9007199254740992', '9007199254740993', '99999999999999999999', '1'.padEnd(400, '0')])(
      'refuses page %j (beyond Number.MAX_SAFE_INTEGER)',
      async (page) => {
        const { deps } = setup();
        const error = await rejection(listPublishedPosts(deps, { query: { page } }));
        expect(error.issues).toEqual([{ path: 'page', message: 'is too large' }]);
      },
    );

    it('lists a problem with each parameter', async () => {
      const { deps } = setup();
      const error = await rejection(listPublishedPosts(deps, { query: { page: '0', perPage: '101' } }));
      expect(error.issues).toEqual([
        { path: 'page', message: 'must be at least 1' },
        { path: 'perPage', message: 'must be at most 100' },
      ]);
    });

    it.each([null, 'page=1'])('reports a non-object query (%j) at path ""', async (query) => {
      const { deps } = setup();
      const error = await rejection(listPublishedPosts(deps, { query }));
      expect(error.issues).toEqual([{ path: '', message: 'must be an object' }]);
    });

    it('takes a request without a query as no query values: the first page of 20', async () => {
      const { deps } = setup();
      expect((await listPublishedPosts(deps, {})).pagination).toStrictEqual({ total: 0, page: 1, perPage: 20, lastPage: 1 });
    });
  });
});
