import type { Post, PostPage } from '@inkwell/domain';
import { describe, expect, it } from 'vitest';
import { alice } from '../support/fixtures.js';
import { expectError, expectJson, expectValidationFailure, type HttpApi, type HttpTarget } from './harness.js';
import { auth, MISSING_ID, ownerModeClient } from './owner-client.js';

/** Owner mode, reading: a draft exists for its author only, in `GET /posts/{id}` and `GET /posts`. */
export function describeOwnerRead(api: () => HttpApi, target: HttpTarget): void {
  const { signUp, write, read, patch, aliceWritesBobWatches } = ownerModeClient(api, target);

  describe('GET /posts/{id}: a draft exists for its author only', () => {
    it('shows a published post to anyone: an anonymous reader, its author, another user', async () => {
      const { a, b, live } = await aliceWritesBobWatches();
      for (const token of [undefined, a.token, b.token]) await expectJson(await read(live.id, token), 200, { post: live });
    });

    it('shows a draft to its author only; to anyone else it is 404 Post not found, exactly as a missing post', async () => {
      const { a, b, draft } = await aliceWritesBobWatches();
      await expectJson(await read(draft.id, a.token), 200, { post: draft });
      for (const token of [undefined, b.token]) {
        const missing = await read(MISSING_ID, token);
        const hidden = await read(draft.id, token);
        expect(hidden.status).toBe(missing.status);
        expect(await hidden.clone().text()).toBe(await missing.text());
        await expectError(hidden, 404, 'Post not found');
      }
    });

    it("hides a draft published and unpublished again: it follows the post's current state", async () => {
      const { a, b, draft } = await aliceWritesBobWatches();
      const shown = (await expectJson(await patch(draft.id, { published: true }, a.token), 200, { post: expect.any(Object) })) as { post: Post };
      await expectJson(await read(draft.id, b.token), 200, shown);
      const hidden = (await expectJson(await patch(draft.id, { published: false }, a.token), 200, { post: expect.any(Object) })) as { post: Post };
      await expectError(await read(draft.id, b.token), 404, 'Post not found');
      await expectError(await read(draft.id), 404, 'Post not found');
      await expectJson(await read(draft.id, a.token), 200, hidden);
    });
  });

  describe('GET /posts: the published posts of every author, whoever asks', () => {
    it('lists the published posts of every author and no draft, whoever asks', async () => {
      const { a, b, draft, live } = await aliceWritesBobWatches();
      await api().elapse(1);
      const bobLive = await write(b.token, { title: 'Bob live', published: true });
      await api().elapse(1);
      const bobDraft = await write(b.token, { title: 'Bob draft' });
      const expected = { posts: [bobLive, live], pagination: { total: 2, page: 1, perPage: 20, lastPage: 1 } };
      for (const headers of [{}, auth(a.token), auth(b.token)]) {
        const page = (await expectJson(await api().request('/posts', { headers }), 200, expected)) as PostPage;
        expect(page.posts.map((p) => p.id)).not.toContain(draft.id);
        expect(page.posts.map((p) => p.id)).not.toContain(bobDraft.id);
      }
    });

    it('keeps its query rules, after the credentials', async () => {
      const a = await signUp(alice);
      await expectValidationFailure(await api().request('/posts?page=0', { headers: auth(a.token) }), ['page']);
      await expectError(await api().request('/posts?page=0', { headers: { authorization: 'Bearer garbage' } }), 401, 'Invalid token');
    });
  });
}
