import type { Post } from '@inkwell/domain';
import { idsThatNameNothing } from '@inkwell/domain/testing';
import { describe, expect, it } from 'vitest';
import { aPost } from '../support/fixtures.js';
import { expectError, expectJson, expectNoContent, expectValidationFailure, inProcessOnly, type HttpApi, type HttpTarget } from './harness.js';

const postShape = (fields: Partial<Post> = {}) => ({
  id: expect.any(String),
  title: aPost.title,
  body: aPost.body,
  authorId: aPost.authorId,
  published: false,
  createdAt: expect.any(Number),
  updatedAt: expect.any(Number),
  ...fields,
});

/** Ids that name no post, as URL path segments (the empty id is a different route: see the routing tests). */
const missingIds = [
  ...idsThatNameNothing.filter((id) => id !== '').map((id) => encodeURIComponent(id)),
  'a%2Fb',
  '%E0%A4%A', // malformed percent-encoding
  encodeURIComponent('ünïcødé 🎉?#&='),
];

/** Create, read, update and delete of one post (docs/api.md, Posts). */
export function describePostsApi(api: () => HttpApi, target: HttpTarget): void {
  const local = inProcessOnly(target);
  describe('POST /posts', () => {
    local.it('answers 201 { post } with exactly the seven fields; published defaults to false', async () => {
      const now = api().clock.now();
      const res = await api().send('POST', '/posts', aPost);
      const { post } = (await expectJson(res, 201, {
        post: postShape({ createdAt: now, updatedAt: now }),
      })) as { post: Post };
      expect(post.id.length).toBeGreaterThan(0);
    });

    it('stores published: true and false as given', async () => {
      expect((await api().createPost({ published: true })).published).toBe(true);
      expect((await api().createPost({ published: false })).published).toBe(false);
    });

    local.it('ignores id, createdAt, updatedAt and unknown fields, and does not store them', async () => {
      const now = api().clock.now();
      const res = await api().send('POST', '/posts', {
        ...aPost,
        id: 'chosen-id',
        _id: 'chosen-id',
        createdAt: 1,
        updatedAt: 2,
        passwordHash: 'x',
        extra: 'ignored',
      });
      const { post } = (await expectJson(res, 201, { post: postShape({ createdAt: now, updatedAt: now }) })) as {
        post: Post;
      };
      expect(post.id).not.toBe('chosen-id');
      await expectJson(await api().request(`/posts/${post.id}`), 200, { post });
      await expectError(await api().request('/posts/chosen-id'), 404, 'Post not found');
    });

    it('does not take published from the prototype of the parsed JSON', async () => {
      const res = await api().request('/posts', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{"title":"t","body":"b","authorId":"a","__proto__":{"published":true}}',
      });
      await expectJson(res, 201, { post: postShape({ title: 't', body: 'b', authorId: 'a', published: false }) });
    });

    it('stores strings exactly as sent: spaces, unicode and null characters included', async () => {
      const fields = { title: '  spaced  ', body: 'Ünïcødé 🎉 \u0000 tab\t', authorId: ' a ' };
      const post = await api().createPost(fields);
      expect(post).toStrictEqual(postShape({ ...fields, createdAt: post.createdAt, updatedAt: post.updatedAt }));
      await expectJson(await api().request(`/posts/${post.id}`), 200, { post });
    });

    it.each([
      ['a title of 1 character', { title: 'T' }],
      ['a title of 200 characters', { title: 't'.repeat(200) }],
      ['a title of 200 UTF-16 code units (100 emoji)', { title: '🎉'.repeat(100) }],
      ['a title of one space', { title: ' ' }],
      ['a body of 1 character', { body: 'b' }],
      ['a long body', { body: 'b'.repeat(100_000) }],
      ['an authorId of 1 character', { authorId: 'a' }],
    ])('accepts %s', async (_label, fields) => {
      const post = await api().createPost(fields);
      expect(post).toStrictEqual(postShape({ ...fields, createdAt: post.createdAt, updatedAt: post.updatedAt }));
    });

    it.each([
      ['an empty title', { title: '' }, ['title']],
      ['a title of 201 characters', { title: 't'.repeat(201) }, ['title']],
      ['a title of 202 UTF-16 code units (101 emoji)', { title: '🎉'.repeat(101) }, ['title']],
      ['an empty body', { body: '' }, ['body']],
      ['an empty authorId', { authorId: '' }, ['authorId']],
      ['published "true"', { published: 'true' }, ['published']],
      ['published 1', { published: 1 }, ['published']],
      ['published null', { published: null }, ['published']],
      ['a title that is not a string', { title: 42 }, ['title']],
      ['a body that is not a string', { body: ['b'] }, ['body']],
      ['an authorId that is not a string', { authorId: 7 }, ['authorId']],
      ['every field wrong at once', { title: '', body: '', authorId: '', published: 'yes' }, ['title', 'body', 'authorId', 'published']],
    ])('answers 400 Validation failed for %s', async (_label, fields, paths) => {
      await expectValidationFailure(await api().send('POST', '/posts', { ...aPost, ...fields }), paths);
    });

    it('answers 400 naming every missing required field', async () => {
      await expectValidationFailure(await api().send('POST', '/posts', {}), ['title', 'body', 'authorId']);
      await expectValidationFailure(await api().send('POST', '/posts', { published: true }), ['title', 'body', 'authorId']);
    });

    it('stores nothing when validation fails', async () => {
      await api().send('POST', '/posts', { ...aPost, published: true, title: '' });
      await expectJson(await api().request('/posts'), 200, {
        posts: [],
        pagination: { total: 0, page: 1, perPage: 20, lastPage: 1 },
      });
    });
  });

  describe('GET /posts/{id}', () => {
    it('answers 200 { post } for a published and for an unpublished post', async () => {
      const draft = await api().createPost({ published: false });
      const live = await api().createPost({ title: 'Live', published: true });
      await expectJson(await api().request(`/posts/${draft.id}`), 200, { post: draft });
      await expectJson(await api().request(`/posts/${live.id}`), 200, { post: live });
    });

    it('answers 404 Post not found for ids that name no post, never 400 or 500', async () => {
      await api().createPost({ published: true });
      for (const id of [...missingIds, '000000000000000000000000', 'x'.repeat(10_000)]) {
        await expectError(await api().request(`/posts/${id}`), 404, 'Post not found');
      }
    });
  });

  describe('PATCH /posts/{id}', () => {
    local.it('applies title, body and published and answers 200 { post } with the saved record', async () => {
      const post = await api().createPost();
      api().clock.advance(5_000);
      const res = await api().send('PATCH', `/posts/${post.id}`, { title: 'New title', body: 'New body', published: true });
      const expected = { ...post, title: 'New title', body: 'New body', published: true, updatedAt: post.createdAt + 5_000 };
      await expectJson(res, 200, { post: expected });
      await expectJson(await api().request(`/posts/${post.id}`), 200, { post: expected });
    });

    local.it('applies only the fields present', async () => {
      const post = await api().createPost({ published: true });
      api().clock.advance(1);
      const titled = await api().send('PATCH', `/posts/${post.id}`, { title: 'Only the title' });
      await expectJson(titled, 200, { post: { ...post, title: 'Only the title', updatedAt: post.updatedAt + 1 } });
      api().clock.advance(1);
      const unpublished = await api().send('PATCH', `/posts/${post.id}`, { published: false });
      await expectJson(unpublished, 200, {
        post: { ...post, title: 'Only the title', published: false, updatedAt: post.updatedAt + 2 },
      });
    });

    it('validates authorId but never changes it', async () => {
      const post = await api().createPost();
      const res = await api().send('PATCH', `/posts/${post.id}`, { authorId: 'someone-else', title: 'T2' });
      // updatedAt is the time of the save: the manual clock's in process, later on a real server's.
      const saved = (await expectJson(res, 200, { post: { ...post, title: 'T2', updatedAt: expect.any(Number) } })) as { post: Post };
      expect(saved.post.updatedAt).toBeGreaterThanOrEqual(post.updatedAt);
      await expectValidationFailure(await api().send('PATCH', `/posts/${post.id}`, { authorId: '' }), ['authorId']);
      await expectValidationFailure(await api().send('PATCH', `/posts/${post.id}`, { authorId: 42 }), ['authorId']);
      await expectJson(await api().request(`/posts/${post.id}`), 200, saved);
    });

    local.it('never takes id, createdAt or updatedAt from the body', async () => {
      const post = await api().createPost();
      api().clock.advance(60_000);
      const res = await api().send('PATCH', `/posts/${post.id}`, { id: 'other', createdAt: 1, updatedAt: 2, extra: true });
      await expectJson(res, 200, { post: { ...post, updatedAt: post.createdAt + 60_000 } });
      await expectError(await api().request('/posts/other'), 404, 'Post not found');
    });

    local.it('saves an empty body {}: only updatedAt moves, to the time of the save', async () => {
      const post = await api().createPost();
      api().clock.advance(1_234);
      await expectJson(await api().send('PATCH', `/posts/${post.id}`, {}), 200, {
        post: { ...post, updatedAt: post.createdAt + 1_234 },
      });
      await expectJson(await api().request(`/posts/${post.id}`), 200, {
        post: { ...post, updatedAt: post.createdAt + 1_234 },
      });
    });

    local.it('never moves updatedAt backwards, even if the clock does', async () => {
      const post = await api().createPost();
      api().clock.advance(10_000);
      await api().send('PATCH', `/posts/${post.id}`, { title: 'Later' });
      api().clock.set(post.createdAt - 50_000);
      const res = await api().send('PATCH', `/posts/${post.id}`, { body: 'Earlier clock' });
      await expectJson(res, 200, {
        post: { ...post, title: 'Later', body: 'Earlier clock', updatedAt: post.createdAt + 10_000 },
      });
    });

    it.each([
      ['an empty title', { title: '' }, ['title']],
      ['a title of 201 characters', { title: 't'.repeat(201) }, ['title']],
      ['an empty body', { body: '' }, ['body']],
      ['published "true"', { published: 'true' }, ['published']],
      ['every field wrong at once', { title: 1, body: 2, authorId: 3, published: 4 }, ['title', 'body', 'authorId', 'published']],
    ])('answers 400 Validation failed for %s and changes nothing', async (_label, fields, paths) => {
      const post = await api().createPost();
      await api().elapse(1);
      await expectValidationFailure(await api().send('PATCH', `/posts/${post.id}`, fields), paths);
      await expectJson(await api().request(`/posts/${post.id}`), 200, { post });
    });

    it('accepts title 1 and 200 characters', async () => {
      const post = await api().createPost();
      for (const title of ['T', 't'.repeat(200)]) {
        await expectJson(await api().send('PATCH', `/posts/${post.id}`, { title }), 200, {
          post: { ...post, title, updatedAt: expect.any(Number) },
        });
      }
    });

    it('answers 404 Post not found for ids that name no post', async () => {
      await api().createPost();
      for (const id of [...missingIds, '000000000000000000000000', 'x'.repeat(10_000)]) {
        await expectError(await api().send('PATCH', `/posts/${id}`, { title: 'x' }), 404, 'Post not found');
      }
    });

    it('answers 404 before looking at the body: invalid fields, bad JSON, another content type', async () => {
      const missing = '000000000000000000000000';
      await expectError(await api().send('PATCH', `/posts/${missing}`, { title: '' }), 404, 'Post not found');
      await expectError(await api().send('PATCH', `/posts/${missing}`, 'not an object'), 404, 'Post not found');
      await expectError(
        await api().request(`/posts/${missing}`, {
          method: 'PATCH',
          headers: { 'content-type': 'application/json' },
          body: '{"title": oops',
        }),
        404,
        'Post not found',
      );
      await expectError(
        await api().request(`/posts/${missing}`, { method: 'PATCH', headers: { 'content-type': 'text/plain' }, body: 'x' }),
        404,
        'Post not found',
      );
    });

    it('answers 404 for a post deleted before the PATCH', async () => {
      const post = await api().createPost();
      await api().request(`/posts/${post.id}`, { method: 'DELETE' });
      await expectError(await api().send('PATCH', `/posts/${post.id}`, { title: 'x' }), 404, 'Post not found');
    });
  });

  describe('DELETE /posts/{id}', () => {
    it('answers 204 with no body and no content type; the post is gone', async () => {
      const post = await api().createPost({ published: true });
      await expectNoContent(await api().request(`/posts/${post.id}`, { method: 'DELETE' }));
      await expectError(await api().request(`/posts/${post.id}`), 404, 'Post not found');
      await expectJson(await api().request('/posts'), 200, {
        posts: [],
        pagination: { total: 0, page: 1, perPage: 20, lastPage: 1 },
      });
    });

    it('answers 404 Post not found the second time', async () => {
      const post = await api().createPost();
      await expectNoContent(await api().request(`/posts/${post.id}`, { method: 'DELETE' }));
      await expectError(await api().request(`/posts/${post.id}`, { method: 'DELETE' }), 404, 'Post not found');
    });

    it('deletes only the post named', async () => {
      const keep = await api().createPost({ title: 'Keep' });
      const drop = await api().createPost({ title: 'Drop' });
      await expectNoContent(await api().request(`/posts/${drop.id}`, { method: 'DELETE' }));
      await expectJson(await api().request(`/posts/${keep.id}`), 200, { post: keep });
    });

    it('answers 404 Post not found for ids that name no post', async () => {
      await api().createPost();
      for (const id of [...missingIds, '000000000000000000000000', 'x'.repeat(10_000)]) {
        await expectError(await api().request(`/posts/${id}`, { method: 'DELETE' }), 404, 'Post not found');
      }
    });
  });
}
