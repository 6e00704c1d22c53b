import type { Post } from '@inkwell/domain';
import { describe, expect, it } from 'vitest';
import { aPost } from '../support/fixtures.js';
import { expectError, expectJson, expectNoContent, type HttpTarget } from './harness.js';

/** The setting that makes every change and deletion of a post conditional. */
export const PRECONDITION_REQUIRED = { POSTS_REQUIRE_PRECONDITION: 'on' } as const;

/**
 * `POSTS_REQUIRE_PRECONDITION=on`: a PATCH or DELETE of a post without `If-Match` is 428
 * Precondition required (after the 404), and changes nothing; creates and reads are as ever.
 */
export function describePreconditionRequired(target: HttpTarget): void {
  if (target.env.POSTS_REQUIRE_PRECONDITION !== 'on') throw new Error(`describePreconditionRequired: ${target.label} does not run with POSTS_REQUIRE_PRECONDITION=on`);
  describe(`writes that must be conditional (POSTS_REQUIRE_PRECONDITION=on) on ${target.label}`, { timeout: target.testTimeoutMs }, () => {
    const api = target.use();
    const created = async () => {
      const res = await api().send('POST', '/posts', { ...aPost, published: true });
      const { post } = (await expectJson(res, 201, { post: expect.any(Object) })) as { post: Post };
      return { post, etag: res.headers.get('etag') as string };
    };

    it('answers 428 Precondition required to a PATCH or DELETE without If-Match, reading no body and changing nothing', async () => {
      const { post, etag } = await created();
      await expectError(await api().send('PATCH', `/posts/${post.id}`, { title: 'Blind' }), 428, 'Precondition required');
      await expectError(await api().request(`/posts/${post.id}`, { method: 'PATCH', headers: { 'content-type': 'text/plain' }, body: 'x' }), 428, 'Precondition required');
      await expectError(await api().request(`/posts/${post.id}`, { method: 'DELETE' }), 428, 'Precondition required');
      const res = await api().request(`/posts/${post.id}`);
      expect(res.headers.get('etag')).toBe(etag);
      await expectJson(res, 200, { post });
    });

    it('answers 404 before 428 for a missing post', async () => {
      await expectError(await api().send('PATCH', '/posts/000000000000000000000000', {}), 404, 'Post not found');
      await expectError(await api().request('/posts/000000000000000000000000', { method: 'DELETE' }), 404, 'Post not found');
    });

    it('applies a PATCH or DELETE with If-Match (a tag or *), and answers 412 on a stale one', async () => {
      const { post, etag } = await created();
      const saved = await api().send('PATCH', `/posts/${post.id}`, { title: 'Seen' }, { 'if-match': etag });
      await expectJson(saved, 200, { post: expect.objectContaining({ title: 'Seen' }) });
      await expectError(await api().request(`/posts/${post.id}`, { method: 'DELETE', headers: { 'if-match': etag } }), 412, 'Precondition failed');
      await expectJson(await api().send('PATCH', `/posts/${post.id}`, {}, { 'if-match': '*' }), 200, { post: expect.any(Object) });
      await expectNoContent(await api().request(`/posts/${post.id}`, { method: 'DELETE', headers: { 'if-match': '*' } }));
    });

    it('creates and reads posts as ever', async () => {
      const { post } = await created();
      await expectJson(await api().request(`/posts/${post.id}`), 200, { post });
    });
  });
}
