import type { Post } from '@inkwell/domain';
import { crossing, holdNextCall } from '@inkwell/domain/testing';
import { describe, expect, it } from 'vitest';
import { aPost } from '../support/fixtures.js';
import type { CrossingApps } from './account-races.suite.js';
import { expectError, expectJson, expectNoContent, type HttpApi } from './harness.js';

/** How long a create holds its idempotency key before the same request may take over (the domain's default lease). */
const LEASE_MS = 5000;

/**
 * Writes that cross (docs/security.md, "Writes that cross"), through HTTP, in open mode: one request
 * held at the exact point between its checks and its write (`holdNextCall` on its store) while the
 * other runs to the end, on one app or on two apps with their own repositories on one database.
 * Of two writes made on one version exactly one applies, and one key stores one post, whatever
 * the order and whichever process gets there first.
 */
export function describeSafeWriteRaces(apps: () => CrossingApps): void {
  const held = () => apps().held;
  const other = () => apps().other;
  const patch = (app: HttpApi, id: string, title: string, etag: string) => app.send('PATCH', `/posts/${id}`, { title }, { 'if-match': etag });
  const remove = (app: HttpApi, id: string, etag: string) => app.request(`/posts/${id}`, { method: 'DELETE', headers: { 'if-match': etag } });
  const create = (app: HttpApi, key: string) => app.send('POST', '/posts', { ...aPost, published: true }, { 'idempotency-key': key });
  /** A published post, made through `held`, with its ETag. */
  const aPostWithTag = async () => {
    const res = await held().send('POST', '/posts', { ...aPost, published: true });
    const { post } = (await expectJson(res, 201, { post: expect.any(Object) })) as { post: Post };
    return { post, etag: res.headers.get('etag') as string };
  };
  /** The post as `other` reads it now, with its ETag; null when it is gone. */
  const current = async (id: string) => {
    const res = await other().request(`/posts/${id}`);
    if (res.status === 404) return null;
    return { post: ((await res.json()) as { post: Post }).post, etag: res.headers.get('etag') };
  };
  /** Every published post, as `other` lists them. */
  const listed = async () => ((await (await other().request('/posts?perPage=100')).json()) as { posts: Post[] }).posts;

  describe('writes made on one version, crossing', () => {
    it('two PATCHes with the same If-Match: exactly one is applied, and the other answers 412 with the ETag the first made', async () => {
      const { post, etag } = await aPostWithTag();
      let winner: Response | undefined;
      const loser = await crossing(
        holdNextCall(held().inkwell.store.posts, 'update'),
        () => patch(held(), post.id, 'Held editor', etag),
        async () => (winner = await patch(other(), post.id, 'Quicker editor', etag)),
      );
      await expectJson(winner as Response, 200, { post: expect.objectContaining({ title: 'Quicker editor' }) });
      expect(loser.headers.get('etag')).toBe((winner as Response).headers.get('etag'));
      await expectError(loser, 412, 'Precondition failed');
      expect(await current(post.id)).toStrictEqual({ post: expect.objectContaining({ title: 'Quicker editor' }), etag: (winner as Response).headers.get('etag') });
    });

    it('a PATCH held while a DELETE with the same If-Match went through: 204, then 404, and the post is gone', async () => {
      const { post, etag } = await aPostWithTag();
      const late = await crossing(
        holdNextCall(held().inkwell.store.posts, 'update'),
        () => patch(held(), post.id, 'Too late', etag),
        async () => expectNoContent(await remove(other(), post.id, etag)),
      );
      await expectError(late, 404, 'Post not found');
      expect(await current(post.id)).toBeNull();
    });

    it('a DELETE held while a PATCH with the same If-Match went through: 200, then 412 with the new ETag, and the post stays', async () => {
      const { post, etag } = await aPostWithTag();
      let saved: Response | undefined;
      const refused = await crossing(
        holdNextCall(held().inkwell.store.posts, 'delete'),
        () => remove(held(), post.id, etag),
        async () => (saved = await patch(other(), post.id, 'Kept', etag)),
      );
      expect((saved as Response).status).toBe(200);
      expect(refused.headers.get('etag')).toBe((saved as Response).headers.get('etag'));
      await expectError(refused, 412, 'Precondition failed');
      expect((await current(post.id))?.post.title).toBe('Kept');
    });
  });

  describe('one idempotency key, crossing', () => {
    it('two POSTs with one key at the same moment: one 201, one 409 with Retry-After: 1, and one post', async () => {
      let during: Response | undefined;
      const first = await crossing(holdNextCall(held().inkwell.store.posts, 'insertAs'), () => create(held(), 'same-moment'), async () => (during = await create(other(), 'same-moment')));
      expect((during as Response).headers.get('retry-after')).toBe('1');
      await expectError(during as Response, 409, 'Request with this idempotency key is in progress');
      const { post } = (await expectJson(first, 201, { post: expect.any(Object) })) as { post: Post };
      const retry = await create(other(), 'same-moment');
      expect(retry.headers.get('idempotent-replayed')).toBe('true');
      await expectJson(retry, 201, { post });
      expect((await listed()).map((listedPost) => listedPost.id)).toEqual([post.id]);
    });

    it('a run stopped dead between storing the post and keeping its answer: the retry, once the lease ended, answers that post, and only one is stored', async () => {
      // The held run stands for a process that died there: it never goes on until the end.
      const stopped = holdNextCall(held().inkwell.store.idempotencyKeys, 'complete');
      const dead = create(held(), 'crash');
      await stopped.reached;
      const [stranded] = await listed();
      expect(stranded).toBeDefined();
      await expectError(await create(other(), 'crash'), 409, 'Request with this idempotency key is in progress');

      await other().elapse(LEASE_MS);
      const retry = await create(other(), 'crash');
      expect([retry.headers.get('etag'), retry.headers.get('idempotent-replayed')]).toEqual(['"1"', null]);
      await expectJson(retry, 201, { post: stranded });
      const again = await create(other(), 'crash');
      expect(again.headers.get('idempotent-replayed')).toBe('true');
      await expectJson(again, 201, { post: stranded });
      expect(await listed()).toStrictEqual([stranded]);

      // Were it only slow, not dead: it keeps nothing, its lease having been taken over, and answers the same post.
      stopped.release();
      await expectJson(await dead, 201, { post: stranded });
      expect(await listed()).toStrictEqual([stranded]);
    });
  });
}
