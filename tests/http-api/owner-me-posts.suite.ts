import type { Post } from '@inkwell/domain';
import { describe, expect, it } from 'vitest';
import { alice, bob } from '../support/fixtures.js';
import { allowedMethods, expectError, expectJson, expectNoContent, expectValidationFailure, inProcessOnly, type HttpApi, type HttpTarget } from './harness.js';
import { auth, emptyPage, ownerModeClient } from './owner-client.js';

/** Owner mode, `GET /me/posts`: the caller's own posts, drafts included, paged like `GET /posts`. */
export function describeOwnPostsList(api: () => HttpApi, target: HttpTarget): void {
  const { signUp, write, patch, remove, ownPosts, aliceWritesBobWatches } = ownerModeClient(api, target);
  const local = inProcessOnly(target);

  describe("GET /me/posts: the caller's own posts, drafts included", () => {
    it("lists the caller's own posts, drafts included, newest first, and nobody else's", async () => {
      const a = await signUp(alice);
      const b = await signUp(bob);
      const mine: Post[] = [];
      const theirs: Post[] = [];
      for (const published of [false, true, false]) {
        mine.push(await write(a.token, { title: `Alice ${mine.length}`, published }));
        await api().elapse(1);
        theirs.push(await write(b.token, { title: `Bob ${theirs.length}`, published: !published }));
        await api().elapse(1);
      }
      const res = await api().request('/me/posts', { headers: auth(a.token) });
      expect(res.headers.get('cache-control')).toBe('no-store');
      await expectJson(res, 200, { posts: [...mine].reverse(), pagination: { total: 3, page: 1, perPage: 20, lastPage: 1 } });
      expect(await ownPosts(b.token)).toStrictEqual({
        posts: [...theirs].reverse(),
        pagination: { total: 3, page: 1, perPage: 20, lastPage: 1 },
      });
    });

    it('answers an empty first page to a user with no posts', async () => {
      const { b } = await aliceWritesBobWatches();
      expect(await ownPosts(b.token)).toStrictEqual(emptyPage);
    });

    it('pages like GET /posts: perPage, the last partial page, and past the last page no posts with the page echoed', async () => {
      const a = await signUp(alice);
      const created: Post[] = [];
      for (let i = 0; i < 5; i++) {
        created.push(await write(a.token, { title: `Post ${i}`, published: i % 2 === 0 }));
        await api().elapse(1);
      }
      const newest = [...created].reverse();
      expect(await ownPosts(a.token, '?perPage=2')).toStrictEqual({
        posts: newest.slice(0, 2),
        pagination: { total: 5, page: 1, perPage: 2, lastPage: 3 },
      });
      expect(await ownPosts(a.token, '?page=2&perPage=2')).toStrictEqual({
        posts: newest.slice(2, 4),
        pagination: { total: 5, page: 2, perPage: 2, lastPage: 3 },
      });
      expect(await ownPosts(a.token, '?page=3&perPage=2')).toStrictEqual({
        posts: newest.slice(4),
        pagination: { total: 5, page: 3, perPage: 2, lastPage: 3 },
      });
      expect(await ownPosts(a.token, '?page=4&perPage=2')).toStrictEqual({
        posts: [],
        pagination: { total: 5, page: 4, perPage: 2, lastPage: 3 },
      });
      expect(await ownPosts(a.token, '?page=9007199254740991&perPage=100')).toStrictEqual({
        posts: [],
        pagination: { total: 5, page: 9007199254740991, perPage: 100, lastPage: 1 },
      });
      expect(await ownPosts(a.token, '?page=02&perPage=005')).toStrictEqual({
        posts: [],
        pagination: { total: 5, page: 2, perPage: 5, lastPage: 1 },
      });
    });

    it('defaults to page 1 and perPage 20', async () => {
      const a = await signUp(alice);
      const created: Post[] = [];
      for (let i = 0; i < 21; i++) {
        created.push(await write(a.token, { title: `Post ${i}` }));
        await api().elapse(1);
      }
      const first = await ownPosts(a.token);
      expect(first.pagination).toStrictEqual({ total: 21, page: 1, perPage: 20, lastPage: 2 });
      expect(first.posts).toStrictEqual([...created].reverse().slice(0, 20));
      expect((await ownPosts(a.token, '?page=2')).posts).toStrictEqual([created[0]]);
    });

    local.it('orders posts of the same millisecond by id descending, stably across pages', async () => {
      const a = await signUp(alice);
      const created: Post[] = [];
      for (let i = 0; i < 5; i++) created.push(await write(a.token, { title: `Same ${i}`, published: i === 2 }));
      expect(new Set(created.map((p) => p.createdAt)).size).toBe(1);
      const expected = created.map((p) => p.id).sort().reverse();
      const pages = [await ownPosts(a.token, '?perPage=2'), await ownPosts(a.token, '?page=2&perPage=2'), await ownPosts(a.token, '?page=3&perPage=2')];
      expect(pages.flatMap((page) => page.posts.map((p) => p.id))).toEqual(expected);
    });

    it('follows PATCH and DELETE: an edited post shows its new fields, a deleted one is gone', async () => {
      const { a, draft, live } = await aliceWritesBobWatches();
      const { post: published } = (await expectJson(await patch(draft.id, { title: 'Now live', published: true }, a.token), 200, {
        post: expect.any(Object),
      })) as { post: Post };
      expect((await ownPosts(a.token)).posts).toStrictEqual([live, published]);
      await expectNoContent(await remove(live.id, a.token));
      expect(await ownPosts(a.token)).toStrictEqual({ posts: [published], pagination: { total: 1, page: 1, perPage: 20, lastPage: 1 } });
    });

    const invalid: [string, string[]][] = [
      ['?page=0', ['page']],
      ['?page=abc', ['page']],
      ['?page=1.5', ['page']],
      ['?page=9007199254740992', ['page']],
      ['?page=1&page=2', ['page']],
      ['?perPage=0', ['perPage']],
      ['?perPage=101', ['perPage']],
      ['?perPage=-1', ['perPage']],
      ['?page=0&perPage=101', ['page', 'perPage']],
    ];
    it.each(invalid)('answers 400 Validation failed for %s, with Cache-Control: no-store', async (query, paths) => {
      const a = await signUp(alice);
      const res = await api().request(`/me/posts${query}`, { headers: auth(a.token) });
      expect(res.headers.get('cache-control')).toBe('no-store');
      await expectValidationFailure(res, paths);
    });

    it('answers 401 before looking at the query, with Cache-Control: no-store', async () => {
      for (const [headers, message] of [
        [{}, 'Missing authorization header'],
        [{ authorization: 'Bearer garbage' }, 'Invalid token'],
      ] as const) {
        for (const query of ['', '?page=0&perPage=101']) {
          const res = await api().request(`/me/posts${query}`, { headers });
          expect(res.headers.get('cache-control')).toBe('no-store');
          await expectError(res, 401, message);
        }
      }
    });

    it('answers 405 with Allow: GET, HEAD to other methods', async () => {
      const a = await signUp(alice);
      for (const method of ['POST', 'PUT', 'PATCH', 'DELETE']) {
        const res = await api().request('/me/posts', { method, headers: auth(a.token) });
        expect(allowedMethods(res)).toEqual(['GET', 'HEAD']);
        await expectError(res, 405, 'Method not allowed');
      }
      expect(await ownPosts(a.token)).toStrictEqual(emptyPage);
    });
  });
}
