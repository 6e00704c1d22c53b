import type { Post } from '@inkwell/domain';
import { describe, expect, it } from 'vitest';
import { MiB } from '../support/fixtures.js';
import { expectError, expectJson, expectValidationFailure, inProcessOnly, jsonOfExactSize, type HttpApi, type HttpTarget } from './harness.js';
import { auth, emptyPage, MISSING_ID, ownerModeClient } from './owner-client.js';

/** Owner mode, `PATCH /posts/{id}`: only the author changes a post, and authorId never changes. */
export function describeOwnerChange(api: () => HttpApi, target: HttpTarget): void {
  const { patch, ownPosts, publishedPosts, expectUnchanged, aliceWritesBobWatches } = ownerModeClient(api, target);
  const local = inProcessOnly(target);

  describe('PATCH /posts/{id}: only the author changes a post', () => {
    local.it('lets the author change title, body and published; authorId never changes', async () => {
      const { a, b, draft } = await aliceWritesBobWatches();
      api().clock.advance(5_000);
      const res = await patch(draft.id, { title: 'Edited', body: 'New body', published: true, authorId: b.user.id }, a.token);
      const expected = { ...draft, title: 'Edited', body: 'New body', published: true, updatedAt: api().clock.now() };
      await expectJson(res, 200, { post: expected });
      await expectUnchanged(a.token, expected);
      expect(await ownPosts(b.token)).toStrictEqual(emptyPage);
    });

    it('keeps authorId whatever the body says, on any target', async () => {
      const { a, b, live } = await aliceWritesBobWatches();
      const res = await patch(live.id, { authorId: b.user.id, body: 'Still mine' }, a.token);
      const { post } = (await expectJson(res, 200, {
        post: { ...live, body: 'Still mine', updatedAt: expect.any(Number) },
      })) as { post: Post };
      expect(post.authorId).toBe(a.user.id);
      expect((await ownPosts(a.token)).posts.map((p) => p.id)).toContain(live.id);
      expect(await ownPosts(b.token)).toStrictEqual(emptyPage);
    });

    it("answers 401 to an anonymous writer on one's own post, a draft and a missing id, and changes nothing", async () => {
      const { a, draft, live } = await aliceWritesBobWatches();
      for (const id of [live.id, draft.id, MISSING_ID]) {
        await expectError(await patch(id, { title: 'Changed', published: true }), 401, 'Missing authorization header');
      }
      await expectUnchanged(a.token, draft, live);
    });

    it("answers 404 Post not found to another user for a missing post and for someone else's draft, and changes nothing", async () => {
      const { a, b, draft, live } = await aliceWritesBobWatches();
      await expectError(await patch(MISSING_ID, { title: 'x' }, b.token), 404, 'Post not found');
      await expectError(await patch(draft.id, { title: 'Taken', published: true }, b.token), 404, 'Post not found');
      await expectUnchanged(a.token, draft, live);
      expect((await publishedPosts()).posts).toStrictEqual([live]);
    });

    it("answers 403 Only the author can change this post for someone else's published post, and changes nothing", async () => {
      const { a, b, draft, live } = await aliceWritesBobWatches();
      for (const body of [{ title: 'Defaced' }, { published: false }, {}]) {
        await expectError(await patch(live.id, body, b.token), 403, 'Only the author can change this post');
      }
      await expectUnchanged(a.token, draft, live);
      expect((await publishedPosts()).posts).toStrictEqual([live]);
    });

    it('answers in the order 401, 404, 403, 400 for the same invalid body', async () => {
      const { a, b, draft, live } = await aliceWritesBobWatches();
      const invalid = { title: '', published: 'yes' };
      await expectError(await patch(MISSING_ID, invalid), 401, 'Missing authorization header');
      await expectError(await api().send('PATCH', `/posts/${MISSING_ID}`, invalid, { authorization: 'Bearer garbage' }), 401, 'Invalid token');
      await expectError(await patch(live.id, invalid), 401, 'Missing authorization header');
      await expectError(await patch(MISSING_ID, invalid, b.token), 404, 'Post not found');
      await expectError(await patch(draft.id, invalid, b.token), 404, 'Post not found');
      await expectError(await patch(live.id, invalid, b.token), 403, 'Only the author can change this post');
      await expectValidationFailure(await patch(live.id, invalid, a.token), ['title', 'published']);
      await expectUnchanged(a.token, draft, live);
    });

    it('never reads the body before 401, 404 and 403: another content type, a body over 1 MiB, bad JSON', async () => {
      const { a, b, draft, live } = await aliceWritesBobWatches();
      const send = (id: string, headers: Record<string, string>, body: string, extra: Record<string, string> = {}) =>
        api().request(`/posts/${id}`, { method: 'PATCH', headers: { 'content-type': 'application/json', ...headers, ...extra }, body });
      const oversized = jsonOfExactSize({ title: 't' }, MiB + 1);
      const bodies: [string, Record<string, string>][] = [
        ['x', { 'content-type': 'text/plain' }],
        [oversized, { 'content-length': String(MiB + 1) }],
        ['{"title": oops', {}],
      ];
      for (const [body, extra] of bodies) {
        await expectError(await send(live.id, {}, body, extra), 401, 'Missing authorization header');
        await expectError(await send(draft.id, auth(b.token), body, extra), 404, 'Post not found');
        await expectError(await send(live.id, auth(b.token), body, extra), 403, 'Only the author can change this post');
      }
      // The body rules come after the ownership rules: the author gets them.
      await expectError(await send(live.id, auth(a.token), 'x', { 'content-type': 'text/plain' }), 415, 'Content-Type must be application/json');
      await expectError(await send(live.id, auth(a.token), oversized, { 'content-length': String(MiB + 1) }), 413, 'Request body too large');
      await expectError(await send(live.id, auth(a.token), '{"title": oops'), 400, 'Invalid JSON body');
      await expectUnchanged(a.token, draft, live);
    });
  });
}
