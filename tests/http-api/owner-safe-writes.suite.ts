import type { Post } from '@inkwell/domain';
import { describe, expect, it } from 'vitest';
import { aPost, alice, bob } from '../support/fixtures.js';
import { expectError, expectJson, type HttpApi, type HttpTarget } from './harness.js';
import { auth, ownerModeClient } from './owner-client.js';

/**
 * Versions, conditional requests and idempotency keys where posts have owners: the answers depend
 * on the token (`Cache-Control: private, no-cache`), the access rules come before any condition,
 * and a key belongs to the account that sends it.
 */
export function describeOwnerSafeWrites(api: () => HttpApi, target: HttpTarget): void {
  const { signUp, write, read, aliceWritesBobWatches, expectUnchanged, expectNoPostsUnder, ownPosts } = ownerModeClient(api, target);
  const create = (token: string | undefined, key: string, fields: Record<string, unknown> = {}) =>
    api().send('POST', '/posts', { title: aPost.title, body: aPost.body, published: true, ...fields }, { 'idempotency-key': key, ...(token ? auth(token) : {}) });

  describe('safe writes with owned posts', () => {
    it('says Cache-Control: private, no-cache on the answers about one post, errors included', async () => {
      const { a, b, draft } = await aliceWritesBobWatches();
      const answers = [
        await create(a.token, 'k'),
        await read(draft.id, a.token),
        await read(draft.id, b.token),
        await read(draft.id),
        await api().send('PATCH', `/posts/${draft.id}`, {}, auth(a.token)),
        await api().send('PATCH', `/posts/${draft.id}`, {}),
      ];
      expect(answers.map((res) => `${res.status} ${res.headers.get('cache-control')}`)).toEqual(
        ['201', '200', '404', '404', '200', '401'].map((status) => `${status} private, no-cache`),
      );
    });

    it("answers a draft's author 304 on its ETag, and anyone else 404 whatever If-None-Match says", async () => {
      const { a, b, draft } = await aliceWritesBobWatches();
      const mine = await read(draft.id, a.token);
      const etag = mine.headers.get('etag') as string;
      const revalidated = await api().request(`/posts/${draft.id}`, { headers: { ...auth(a.token), 'if-none-match': etag } });
      expect([revalidated.status, revalidated.headers.get('etag'), await revalidated.text()]).toEqual([304, etag, '']);
      for (const headers of [{ 'if-none-match': etag }, { 'if-none-match': '*', ...auth(b.token) }]) {
        await expectError(await api().request(`/posts/${draft.id}`, { headers }), 404, 'Post not found');
      }
    });

    it('answers 401, then 404 (a draft of another), then 403 (a published post of another) before 412, and only then 412', async () => {
      const { a, b, draft, live } = await aliceWritesBobWatches();
      const stale = { 'if-match': '"999"' };
      await expectError(await api().send('PATCH', `/posts/${live.id}`, { title: 'x' }, stale), 401, 'Missing authorization header');
      await expectError(await api().send('PATCH', `/posts/${draft.id}`, { title: 'x' }, { ...stale, ...auth(b.token) }), 404, 'Post not found');
      await expectError(await api().request(`/posts/${live.id}`, { method: 'DELETE', headers: { ...stale, ...auth(b.token) } }), 403, 'Only the author can change this post');
      await expectError(await api().send('PATCH', `/posts/${live.id}`, { title: '' }, { ...stale, ...auth(a.token) }), 412, 'Precondition failed');
      await expectUnchanged(a.token, draft, live);
    });

    it("keeps each account's keys apart: the same key and body from two accounts create two posts, each replayed to its own account", async () => {
      const a = await signUp(alice);
      const b = await signUp(bob);
      const hers = (await expectJson(await create(a.token, 'shared'), 201, { post: expect.any(Object) })) as { post: Post };
      const his = (await expectJson(await create(b.token, 'shared'), 201, { post: expect.any(Object) })) as { post: Post };
      expect([hers.post.authorId, his.post.authorId]).toEqual([a.user.id, b.user.id]);
      const again = await create(a.token, 'shared');
      expect(again.headers.get('idempotent-replayed')).toBe('true');
      await expectJson(again, 201, hers);
      expect((await ownPosts(b.token)).posts.map((post) => post.id)).toEqual([his.post.id]);
    });

    it('answers 401 to a key sent without a token before looking at the key, which stays free for the author', async () => {
      const a = await signUp(alice);
      await expectError(await create(undefined, 'early'), 401, 'Missing authorization header');
      await expectError(await create('not-a-token', 'early'), 401, 'Invalid token');
      const res = await create(a.token, 'early');
      expect([res.status, res.headers.get('idempotent-replayed')]).toEqual([201, null]);
    });

    it('keeps no 403: the same request runs again (and is refused again, not replayed), and the key stays its own', async () => {
      const a = await signUp(alice);
      const b = await signUp(bob);
      await expectError(await create(a.token, 'wrong-author', { authorId: b.user.id }), 403, 'authorId must be your own user id');
      const again = await create(a.token, 'wrong-author', { authorId: b.user.id });
      expect(again.headers.get('idempotent-replayed')).toBeNull();
      await expectError(again, 403, 'authorId must be your own user id');
      await expectNoPostsUnder(a.user.id, b.user.id);
      await expectError(await create(a.token, 'wrong-author'), 422, 'Idempotency key reused with a different request');
      const fixed = await write(a.token);
      expect(fixed.authorId).toBe(a.user.id);
    });
  });
}
