import type { Post } from '@inkwell/domain';
import { describe, expect, it } from 'vitest';
import { aPost } from '../support/fixtures.js';
import { GONE_USER_ID, issueToken } from '../support/tokens.js';
import { expectError, expectJson, expectNoContent, type HttpApi } from './harness.js';
import { auth } from './owner-client.js';

/**
 * Open access (the default) knows no owners: `GET /me/posts` is an unknown path, and any
 * `Authorization` header on the post endpoints is ignored, garbage included.
 */
export function describeOpenModePosts(api: () => HttpApi): void {
  describe('open mode (the default): posts have no owners, and credentials are ignored', () => {
    it('answers 404 Not found on /me/posts, with or without a token', async () => {
      const { token } = await api().signUp();
      for (const method of ['GET', 'POST', 'DELETE']) {
        await expectError(await api().request('/me/posts', { method }), 404, 'Not found');
        await expectError(await api().request('/me/posts', { method, headers: auth(token) }), 404, 'Not found');
      }
    });

    it('ignores any Authorization header on the post endpoints, garbage included', async () => {
      const { user } = await api().signUp();
      for (const authorization of ['Bearer garbage', 'Basic YTpi', 'Bearer ', `Bearer ${await issueToken(GONE_USER_ID, api().clock)}`]) {
        const headers = { authorization };
        const created = await api().send('POST', '/posts', { ...aPost, published: true }, headers);
        const { post } = (await expectJson(created, 201, { post: expect.objectContaining({ authorId: aPost.authorId }) })) as { post: Post };
        await expectJson(await api().request('/posts', { headers }), 200, {
          posts: [post],
          pagination: { total: 1, page: 1, perPage: 20, lastPage: 1 },
        });
        await expectJson(await api().request(`/posts/${post.id}`, { headers }), 200, { post });
        const patched = await api().send('PATCH', `/posts/${post.id}`, { authorId: user.id, published: false }, headers);
        await expectJson(patched, 200, { post: { ...post, published: false, updatedAt: expect.any(Number) } });
        await expectJson(await api().request(`/posts/${post.id}`, { headers }), 200, {
          post: { ...post, published: false, updatedAt: expect.any(Number) },
        });
        await expectNoContent(await api().request(`/posts/${post.id}`, { method: 'DELETE', headers }));
      }
    });
  });
}
