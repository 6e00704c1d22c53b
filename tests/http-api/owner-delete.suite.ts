import { describe, expect, it } from 'vitest';
import { expectError, expectNoContent, type HttpApi, type HttpTarget } from './harness.js';
import { emptyPage, MISSING_ID, ownerModeClient } from './owner-client.js';

/** Owner mode, `DELETE /posts/{id}`: only the author deletes a post. */
export function describeOwnerDelete(api: () => HttpApi, target: HttpTarget): void {
  const { read, remove, ownPosts, publishedPosts, expectUnchanged, aliceWritesBobWatches } = ownerModeClient(api, target);

  describe('DELETE /posts/{id}: only the author deletes a post', () => {
    it('lets the author delete a draft and a published post: 204, then they are gone everywhere', async () => {
      const { a, b, draft, live } = await aliceWritesBobWatches();
      await expectNoContent(await remove(draft.id, a.token));
      await expectNoContent(await remove(live.id, a.token));
      for (const post of [draft, live]) {
        for (const token of [a.token, b.token, undefined]) await expectError(await read(post.id, token), 404, 'Post not found');
        await expectError(await remove(post.id, a.token), 404, 'Post not found');
      }
      expect(await ownPosts(a.token)).toStrictEqual(emptyPage);
      expect(await publishedPosts()).toStrictEqual(emptyPage);
    });

    it('answers 401 to an anonymous writer and to a bad token, 404 and 403 to another user; every post stays', async () => {
      const { a, b, draft, live } = await aliceWritesBobWatches();
      for (const id of [draft.id, live.id, MISSING_ID]) {
        await expectError(await remove(id), 401, 'Missing authorization header');
        await expectError(await remove(id, 'garbage'), 401, 'Invalid token');
      }
      await expectError(await remove(MISSING_ID, b.token), 404, 'Post not found');
      await expectError(await remove(draft.id, b.token), 404, 'Post not found');
      await expectError(await remove(live.id, b.token), 403, 'Only the author can change this post');
      await expectUnchanged(a.token, draft, live);
      expect((await ownPosts(a.token)).posts).toStrictEqual([live, draft]);
      expect((await publishedPosts()).posts).toStrictEqual([live]);
    });
  });
}
