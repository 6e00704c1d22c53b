import type { Post } from '@inkwell/domain';
import { describe, expect, it } from 'vitest';
import { alice, bob } from '../support/fixtures.js';
import { expectError, expectJson, type HttpApi, type HttpTarget } from './harness.js';
import { auth, emptyPage, ownerModeClient } from './owner-client.js';

/** Owner mode end to end: one client's way from sign-up to a published post, and no way into another's. */
export function describeOwnerWalkthrough(api: () => HttpApi, target: HttpTarget): void {
  const { signUp, write, read, patch, remove, ownPosts, publishedPosts, expectUnchanged } = ownerModeClient(api, target);

  describe('owner mode end to end', () => {
    it("a client's walkthrough: sign up, draft, publish, and no way into someone else's post", async () => {
      const a = await signUp(alice);
      const created = await api().send('POST', '/posts', { title: 'First thoughts', body: 'Not ready yet' }, auth(a.token));
      const { post: draft } = (await expectJson(created, 201, {
        post: expect.objectContaining({ title: 'First thoughts', authorId: a.user.id, published: false }),
      })) as { post: Post };

      expect((await ownPosts(a.token)).posts).toStrictEqual([draft]);
      expect(await publishedPosts()).toStrictEqual(emptyPage);
      await expectError(await read(draft.id), 404, 'Post not found');

      const publishing = await patch(draft.id, { body: 'Ready now', published: true }, a.token);
      const { post: live } = (await expectJson(publishing, 200, {
        post: { ...draft, body: 'Ready now', published: true, updatedAt: expect.any(Number) },
      })) as { post: Post };
      expect((await publishedPosts()).posts).toStrictEqual([live]);
      await expectJson(await read(live.id), 200, { post: live });

      const b = await signUp(bob);
      await expectJson(await read(live.id, b.token), 200, { post: live });
      await expectError(await patch(live.id, { title: 'Mine now' }, b.token), 403, 'Only the author can change this post');
      await expectError(await remove(live.id, b.token), 403, 'Only the author can change this post');
      await expectError(
        await api().send('POST', '/posts', { title: 'As Alice', body: 'b', authorId: a.user.id }, auth(b.token)),
        403,
        'authorId must be your own user id',
      );
      const bobs = await write(b.token, { title: "Bob's draft" });
      await expectError(await read(bobs.id, a.token), 404, 'Post not found');
      await expectError(await patch(bobs.id, { published: true }, a.token), 404, 'Post not found');
      await expectError(await remove(bobs.id, a.token), 404, 'Post not found');

      expect(await ownPosts(a.token)).toStrictEqual({ posts: [live], pagination: { total: 1, page: 1, perPage: 20, lastPage: 1 } });
      expect(await ownPosts(b.token)).toStrictEqual({ posts: [bobs], pagination: { total: 1, page: 1, perPage: 20, lastPage: 1 } });
      await expectUnchanged(b.token, bobs);
    });
  });
}
