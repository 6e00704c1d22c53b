import type { Post } from '@inkwell/domain';
import { describe, expect, it } from 'vitest';
import { MiB, aPost, alice, bob } from '../support/fixtures.js';
import { expectError, expectJson, expectValidationFailure, jsonOfExactSize, type HttpApi, type HttpTarget } from './harness.js';
import { auth, emptyPage, ownerModeClient } from './owner-client.js';

/** Owner mode, `POST /posts`: a signed-in writer is the author, and nobody writes in another's name. */
export function describeOwnerCreate(api: () => HttpApi, target: HttpTarget): void {
  const { signUp, write, read, ownPosts, publishedPosts, expectNoPostsUnder } = ownerModeClient(api, target);

  describe('POST /posts: the signed-in writer is the author, and nobody else', () => {
    it('makes the caller the author when authorId is left out; published defaults to false', async () => {
      const a = await signUp(alice);
      const res = await api().send('POST', '/posts', { title: 'Mine', body: 'By me' }, auth(a.token));
      const { post } = (await expectJson(res, 201, {
        post: {
          id: expect.any(String),
          title: 'Mine',
          body: 'By me',
          authorId: a.user.id,
          published: false,
          createdAt: expect.any(Number),
          updatedAt: expect.any(Number),
        },
      })) as { post: Post };
      await expectJson(await read(post.id, a.token), 200, { post });
    });

    it("accepts authorId when it is the caller's own id", async () => {
      const a = await signUp(alice);
      const post = await write(a.token, { authorId: a.user.id, published: true });
      expect(post).toMatchObject({ authorId: a.user.id, published: true });
      expect((await publishedPosts()).posts).toStrictEqual([post]);
    });

    it('answers 401 Missing authorization header to an anonymous writer, whatever the body, and stores nothing', async () => {
      const a = await signUp(alice);
      for (const authorId of [a.user.id, aPost.authorId]) {
        for (const published of [true, false]) {
          await expectError(await api().send('POST', '/posts', { ...aPost, authorId, published }), 401, 'Missing authorization header');
        }
      }
      await expectError(await api().send('POST', '/posts', { title: 'No author', body: 'b' }), 401, 'Missing authorization header');
      expect(await ownPosts(a.token)).toStrictEqual(emptyPage);
      expect(await publishedPosts()).toStrictEqual(emptyPage);
      await expectNoPostsUnder(a.user.id, aPost.authorId);
    });

    it('answers 401 before the body rules: another content type, a body over 1 MiB, bad JSON, an invalid body', async () => {
      const a = await signUp(alice);
      const anonymous = {};
      const garbage = { authorization: 'Bearer garbage' };
      for (const [headers, message] of [
        [anonymous, 'Missing authorization header'],
        [garbage, 'Invalid token'],
      ] as const) {
        const post = (body: string, extra: Record<string, string> = {}) =>
          api().request('/posts', { method: 'POST', headers: { 'content-type': 'application/json', ...headers, ...extra }, body });
        await expectError(await post('x', { 'content-type': 'text/plain' }), 401, message);
        await expectError(
          await post(jsonOfExactSize({ title: 't', body: 'b' }, MiB + 1), { 'content-length': String(MiB + 1) }),
          401,
          message,
        );
        await expectError(await post('{"title":'), 401, message);
        await expectError(await post(JSON.stringify({ title: '' })), 401, message);
      }
      await expectNoPostsUnder(a.user.id);
    });

    it('applies the body rules to a signed-in writer: 415, 413, 400 Invalid JSON body, 400 Validation failed', async () => {
      const a = await signUp(alice);
      const post = (body: string, extra: Record<string, string> = {}) =>
        api().request('/posts', { method: 'POST', headers: { 'content-type': 'application/json', ...auth(a.token), ...extra }, body });
      await expectError(await post('x', { 'content-type': 'text/plain' }), 415, 'Content-Type must be application/json');
      await expectError(
        await post(jsonOfExactSize({ title: 't', body: 'b' }, MiB + 1), { 'content-length': String(MiB + 1) }),
        413,
        'Request body too large',
      );
      await expectError(await post('{"title":'), 400, 'Invalid JSON body');
      // authorId is optional here: only title and body are required.
      await expectValidationFailure(await post('{}'), ['title', 'body']);
      await expectValidationFailure(await post(JSON.stringify({ title: '', body: 'b', published: 'yes' })), ['title', 'published']);
      expect(await ownPosts(a.token)).toStrictEqual(emptyPage);
      await expectNoPostsUnder(a.user.id);
    });

    it('answers 403 authorId must be your own user id for anyone else\'s id, and stores nothing', async () => {
      const a = await signUp(alice);
      const b = await signUp(bob);
      const others = [b.user.id, aPost.authorId, ` ${a.user.id}`, `${a.user.id}x`];
      for (const authorId of others) {
        for (const published of [true, false]) {
          await expectError(
            await api().send('POST', '/posts', { ...aPost, authorId, published }, auth(a.token)),
            403,
            'authorId must be your own user id',
          );
        }
      }
      expect(await ownPosts(a.token)).toStrictEqual(emptyPage);
      expect(await ownPosts(b.token)).toStrictEqual(emptyPage);
      expect(await publishedPosts()).toStrictEqual(emptyPage);
      await expectNoPostsUnder(a.user.id, ...others);
    });

    it('validates the body before the authorId rule: 400, not 403', async () => {
      const a = await signUp(alice);
      const b = await signUp(bob);
      const send = (body: Record<string, unknown>) => api().send('POST', '/posts', body, auth(a.token));
      await expectValidationFailure(await send({ ...aPost, authorId: b.user.id, title: '' }), ['title']);
      await expectValidationFailure(await send({ authorId: b.user.id }), ['title', 'body']);
      await expectValidationFailure(await send({ ...aPost, authorId: '' }), ['authorId']);
      await expectValidationFailure(await send({ ...aPost, authorId: 42 }), ['authorId']);
      expect(await ownPosts(a.token)).toStrictEqual(emptyPage);
      expect(await ownPosts(b.token)).toStrictEqual(emptyPage);
      await expectNoPostsUnder(a.user.id, b.user.id);
    });
  });
}
