import type { Post } from '@inkwell/domain';
import { describe, expect, it } from 'vitest';
import { expectJson, expectValidationFailure, inProcessOnly, type HttpApi, type HttpTarget } from './harness.js';

interface Page {
  posts: Post[];
  pagination: { total: number; page: number; perPage: number; lastPage: number };
}

/** `createdAt` descending, then `id` descending (docs/api.md, `GET /posts`). */
const newestFirst = (a: Post, b: Post) =>
  a.createdAt !== b.createdAt ? b.createdAt - a.createdAt : a.id < b.id ? 1 : a.id > b.id ? -1 : 0;

/** `GET /posts` (docs/api.md: `GET /posts`, and Conventions for the query). */
export function describeListApi(api: () => HttpApi, target: HttpTarget): void {
  const local = inProcessOnly(target);
  const list = async (query = '') => {
    const res = await api().request(`/posts${query}`);
    return (await expectJson(res, 200, {
      posts: expect.any(Array),
      pagination: { total: expect.any(Number), page: expect.any(Number), perPage: expect.any(Number), lastPage: expect.any(Number) },
    })) as Page;
  };

  /** Creates `count` published posts, letting at least `stepMs` pass after each. */
  const createPublished = async (count: number, stepMs = 1) => {
    const created: Post[] = [];
    for (let i = 0; i < count; i++) {
      created.push(await api().createPost({ title: `Post ${i}`, published: true }));
      await api().elapse(stepMs);
    }
    return created;
  };

  describe('GET /posts', () => {
    it('answers an empty first page with lastPage 1 when there are no posts', async () => {
      await expectJson(await api().request('/posts'), 200, {
        posts: [],
        pagination: { total: 0, page: 1, perPage: 20, lastPage: 1 },
      });
    });

    it('lists only published posts, each with its seven fields', async () => {
      const live = await api().createPost({ title: 'Live', published: true });
      await api().createPost({ title: 'Draft' });
      await api().createPost({ title: 'Draft 2', published: false });
      await expectJson(await api().request('/posts'), 200, {
        posts: [live],
        pagination: { total: 1, page: 1, perPage: 20, lastPage: 1 },
      });
    });

    local.it('follows PATCH and DELETE: publishing adds a post, unpublishing and deleting remove it', async () => {
      const post = await api().createPost();
      api().clock.advance(1);
      await api().send('PATCH', `/posts/${post.id}`, { published: true });
      const listed = await list();
      expect(listed.posts.map((p) => p.id)).toEqual([post.id]);
      expect(listed.posts[0]?.updatedAt).toBe(post.createdAt + 1);

      await api().send('PATCH', `/posts/${post.id}`, { title: 'Edited' });
      expect((await list()).posts.map((p) => p.title)).toEqual(['Edited']);

      await api().send('PATCH', `/posts/${post.id}`, { published: false });
      expect((await list()).pagination.total).toBe(0);

      await api().send('PATCH', `/posts/${post.id}`, { published: true });
      await api().request(`/posts/${post.id}`, { method: 'DELETE' });
      expect(await list()).toStrictEqual({ posts: [], pagination: { total: 0, page: 1, perPage: 20, lastPage: 1 } });
    });

    it('orders by createdAt descending', async () => {
      const created = await createPublished(4, 1_000);
      expect((await list()).posts).toStrictEqual([...created].reverse());
    });

    local.it('orders posts of the same millisecond by id descending, stably across pages', async () => {
      const created = await createPublished(7, 0);
      expect(new Set(created.map((p) => p.createdAt)).size).toBe(1);
      const expected = [...created].sort(newestFirst).map((p) => p.id);

      const pages = [await list('?perPage=3'), await list('?page=2&perPage=3'), await list('?page=3&perPage=3')];
      expect(pages.map((p) => p.posts.length)).toEqual([3, 3, 1]);
      expect(pages.flatMap((p) => p.posts.map((post) => post.id))).toEqual(expected);
      // Asking again gives the same pages.
      expect((await list('?page=2&perPage=3')).posts.map((p) => p.id)).toEqual(expected.slice(3, 6));
      expect((await list('?perPage=100')).posts.map((p) => p.id)).toEqual(expected);
    });

    it('mixes both keys: createdAt first, id only among equal times', async () => {
      const created: Post[] = [];
      for (let round = 0; round < 3; round++) {
        for (let i = 0; i < 3; i++) created.push(await api().createPost({ title: `r${round} p${i}`, published: true }));
        await api().elapse(10);
      }
      const expected = [...created].sort(newestFirst).map((p) => p.id);
      const pages = [await list('?perPage=4'), await list('?page=2&perPage=4'), await list('?page=3&perPage=4')];
      expect(pages.flatMap((p) => p.posts.map((post) => post.id))).toEqual(expected);
    });

    it.each([
      [5, 2, 3],
      [4, 2, 2],
      [1, 100, 1],
      [3, 1, 3],
      [21, 20, 2],
    ])('with %i posts and perPage %i, lastPage is %i', async (total, perPage, lastPage) => {
      await createPublished(total);
      const page = await list(`?perPage=${perPage}`);
      expect(page.pagination).toStrictEqual({ total, page: 1, perPage, lastPage });
      expect(page.posts).toHaveLength(Math.min(total, perPage));
    });

    it('serves the last, partial page', async () => {
      const created = await createPublished(5);
      const last = await list('?page=3&perPage=2');
      expect(last).toStrictEqual({ posts: [created[0]], pagination: { total: 5, page: 3, perPage: 2, lastPage: 3 } });
    });

    it('answers 200 with posts [] and the requested page echoed past the last page', async () => {
      await createPublished(5);
      await expectJson(await api().request('/posts?page=4&perPage=2'), 200, {
        posts: [],
        pagination: { total: 5, page: 4, perPage: 2, lastPage: 3 },
      });
      await expectJson(await api().request('/posts?page=2'), 200, {
        posts: [],
        pagination: { total: 5, page: 2, perPage: 20, lastPage: 1 },
      });
    });

    it('answers 200 with an empty page for the largest safe page number', async () => {
      await createPublished(2);
      for (const perPage of [1, 100]) {
        await expectJson(await api().request(`/posts?page=9007199254740991&perPage=${perPage}`), 200, {
          posts: [],
          pagination: { total: 2, page: 9007199254740991, perPage, lastPage: perPage === 1 ? 2 : 1 },
        });
      }
    });

    it('defaults to page 1 and perPage 20', async () => {
      const created = await createPublished(21);
      const first = await list();
      expect(first.pagination).toStrictEqual({ total: 21, page: 1, perPage: 20, lastPage: 2 });
      expect(first.posts.map((p) => p.id)).toEqual([...created].reverse().slice(0, 20).map((p) => p.id));
      const second = await list('?page=2');
      expect(second.posts).toStrictEqual([created[0]]);
    });

    it('accepts perPage 1 and 100, and decimal strings with leading zeros', async () => {
      await createPublished(3);
      expect((await list('?perPage=1')).pagination).toStrictEqual({ total: 3, page: 1, perPage: 1, lastPage: 3 });
      expect((await list('?perPage=100')).pagination).toStrictEqual({ total: 3, page: 1, perPage: 100, lastPage: 1 });
      expect((await list('?page=02&perPage=002')).pagination).toStrictEqual({ total: 3, page: 2, perPage: 2, lastPage: 2 });
    });

    it('ignores unknown query parameters', async () => {
      await expectJson(await api().request('/posts?foo=bar&published=false'), 200, {
        posts: [],
        pagination: { total: 0, page: 1, perPage: 20, lastPage: 1 },
      });
    });

    it.each(['101', '1000', '9007199254740991'])('answers 400 naming perPage for perPage=%s', async (value) => {
      await expectValidationFailure(await api().request(`/posts?perPage=${value}`), ['perPage']);
    });

    const invalid = ['abc', '1.5', '0', '-1', '1e2', '', '+1', '%201', '0x10', '1,2', '٣', 'Infinity', 'NaN'];
    it.each(invalid)('answers 400 naming page for page=%s', async (value) => {
      await expectValidationFailure(await api().request(`/posts?page=${value}`), ['page']);
    });
    it.each(invalid)('answers 400 naming perPage for perPage=%s', async (value) => {
      await expectValidationFailure(await api().request(`/posts?perPage=${value}`), ['perPage']);
    });

    it('answers 400 for page beyond Number.MAX_SAFE_INTEGER', async () => {
      for (const value of ['9007199254740992', '99999999999999999999999']) {
        await expectValidationFailure(await api().request(`/posts?page=${value}`), ['page']);
      }
    });

    it('answers 400 for a repeated parameter instead of picking one', async () => {
      await expectValidationFailure(await api().request('/posts?page=1&page=2'), ['page']);
      await expectValidationFailure(await api().request('/posts?perPage=5&perPage=5'), ['perPage']);
    });

    it('answers 400 naming both parameters when both are invalid', async () => {
      await expectValidationFailure(await api().request('/posts?page=0&perPage=101'), ['page', 'perPage']);
      await expectValidationFailure(await api().request('/posts?page&perPage'), ['page', 'perPage']);
    });
  });
}
