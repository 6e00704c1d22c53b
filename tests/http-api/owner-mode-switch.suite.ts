import { expect, it } from 'vitest';
import { aPost, alice, bob } from '../support/fixtures.js';
import { buildHttpApi, expectError, expectJson, expectNoContent, inProcessOnly, type HttpApi, type HttpTarget } from './harness.js';
import { ownerModeClient } from './owner-client.js';

/** Switching a store from open to owner mode: a post belongs to the user its authorId names. */
export function describeOpenToOwnerSwitch(api: () => HttpApi, target: HttpTarget): void {
  const { signUp, read, patch, remove, ownPosts, expectUnchanged } = ownerModeClient(api, target);
  const local = inProcessOnly(target);

  // The test reopens the app's own store in open mode, so it runs where the app is in this process.
  local.describe('switching from open to owner mode', () => {
    it('takes posts written in open mode as owned by the user whose id is their authorId', async () => {
      // Alice signs up and writes in open mode; then the same store is served in owner mode.
      const open = await buildHttpApi(api().inkwell.store, { ...target.env, POSTS_ACCESS: 'open' });
      try {
        const { user } = await open.signUp(alice);
        const draft = await open.createPost({ title: 'Open draft', authorId: user.id });
        const live = await open.createPost({ title: 'Open live', authorId: user.id, published: true });
        const orphan = await open.createPost({ title: 'Nobody', authorId: aPost.authorId });
        await open.elapse(1);

        const { token } = (await expectJson(await api().send('POST', '/auth/login', alice), 200, {
          token: expect.any(String),
          user,
        })) as { token: string };
        const b = await signUp(bob);

        expect((await ownPosts(token)).posts.map((p) => p.id).sort()).toEqual([draft.id, live.id].sort());
        await expectUnchanged(token, draft, live);
        await expectError(await read(draft.id, b.token), 404, 'Post not found');
        await expectError(await read(orphan.id, token), 404, 'Post not found');
        await expectError(await patch(live.id, { title: 'x' }, b.token), 403, 'Only the author can change this post');
        await expectError(await patch(orphan.id, { title: 'x' }, token), 404, 'Post not found');
        await expectJson(await patch(draft.id, { published: true }, token), 200, { post: { ...draft, published: true, updatedAt: expect.any(Number) } });
        await expectNoContent(await remove(live.id, token));
        // And back in open mode, the orphan is untouched.
        await expectJson(await open.request(`/posts/${orphan.id}`), 200, { post: orphan });
      } finally {
        await open.inkwell.close();
      }
    });
  });
}
