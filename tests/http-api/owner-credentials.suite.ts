import type { Post } from '@inkwell/domain';
import { describe, expect, it } from 'vitest';
import { FOREIGN_JWT_SECRET } from '../support/fixtures.js';
import { GONE_USER_ID, issueToken } from '../support/tokens.js';
import { expectError, expectJson, type HttpApi, type HttpTarget } from './harness.js';
import { ownerModeClient, type Session } from './owner-client.js';

/** Owner mode: every posts endpoint checks credentials by the `GET /me` rules; an anonymous client may only read. */
export function describeOwnerCredentials(api: () => HttpApi, target: HttpTarget): void {
  const { read, patch, remove, ownPosts, publishedPosts, expectNoPostsUnder, expectUnchanged, aliceWritesBobWatches } = ownerModeClient(api, target);

  describe('every posts endpoint checks credentials by the GET /me rules', () => {
    /** The 401 answers of `GET /me`, each with the header that earns it (tokens made for Alice). */
    const refusedHeaders = async (a: Session): Promise<[string, string][]> => [
      ['', 'Missing authorization header'],
      ['Basic YWxpY2U6cGFzc3dvcmQ=', 'Missing authorization header'],
      [`bearer ${a.token}`, 'Missing authorization header'],
      [`Bearer${a.token}`, 'Missing authorization header'],
      [a.token, 'Missing authorization header'],
      ['Bearer ', 'Invalid token'],
      ['Bearer garbage', 'Invalid token'],
      [`Bearer ${a.token}x`, 'Invalid token'],
      [`Bearer ${await issueToken(a.user.id, api().clock, { secret: FOREIGN_JWT_SECRET })}`, 'Invalid token'],
      [`Bearer ${await issueToken(GONE_USER_ID, api().clock)}`, 'User no longer exists'],
      // In their order: the scheme before the token, the token before the user.
      [`bearer ${await issueToken(GONE_USER_ID, api().clock)}`, 'Missing authorization header'],
      [`Bearer ${await issueToken(GONE_USER_ID, api().clock, { secret: FOREIGN_JWT_SECRET })}`, 'Invalid token'],
    ];
    const endpoints: readonly { name: string; send(api: HttpApi, live: Post, authorization: string): Promise<Response> }[] = [
      { name: 'GET /posts', send: (api, _live, authorization) => api.request('/posts', { headers: { authorization } }) },
      { name: 'GET /posts/{id}', send: (api, live, authorization) => api.request(`/posts/${live.id}`, { headers: { authorization } }) },
      { name: 'POST /posts', send: (api, _live, authorization) => api.send('POST', '/posts', { title: 'New', body: 'b' }, { authorization }) },
      {
        name: 'PATCH /posts/{id}',
        send: (api, live, authorization) => api.send('PATCH', `/posts/${live.id}`, { title: 'Changed' }, { authorization }),
      },
      {
        name: 'DELETE /posts/{id}',
        send: (api, live, authorization) => api.request(`/posts/${live.id}`, { method: 'DELETE', headers: { authorization } }),
      },
      { name: 'GET /me/posts', send: (api, _live, authorization) => api.request('/me/posts', { headers: { authorization } }) },
    ];

    it.each(endpoints)('$name answers 401 with the /me message for each refused header, and changes nothing', async ({ send }) => {
      const { a, draft, live } = await aliceWritesBobWatches();
      for (const [header, message] of await refusedHeaders(a)) {
        const res = await send(api(), live, header);
        expect({ header, status: res.status }).toStrictEqual({ header, status: 401 });
        await expectError(res, 401, message);
      }
      await expectUnchanged(a.token, draft, live);
      expect(await ownPosts(a.token)).toStrictEqual({ posts: [live, draft], pagination: { total: 2, page: 1, perPage: 20, lastPage: 1 } });
      expect((await publishedPosts()).posts).toStrictEqual([live]);
      await expectNoPostsUnder(GONE_USER_ID);
    });

    it('lets an anonymous reader read, and refuses an anonymous writer with 401 Missing authorization header', async () => {
      const { a, draft, live } = await aliceWritesBobWatches();
      await expectJson(await api().request('/posts'), 200, { posts: [live], pagination: { total: 1, page: 1, perPage: 20, lastPage: 1 } });
      await expectJson(await read(live.id), 200, { post: live });
      await expectError(await api().send('POST', '/posts', { title: 'New', body: 'b', authorId: a.user.id }), 401, 'Missing authorization header');
      await expectError(await patch(live.id, { title: 'Changed' }), 401, 'Missing authorization header');
      await expectError(await remove(live.id), 401, 'Missing authorization header');
      await expectError(await api().request('/me/posts'), 401, 'Missing authorization header');
      await expectUnchanged(a.token, draft, live);
      expect((await ownPosts(a.token)).pagination.total).toBe(2);
    });
  });
}
