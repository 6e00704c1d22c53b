import type { Post, PostPage, PublicUser } from '@inkwell/domain';
import { describe, expect, it } from 'vitest';
import { FOREIGN_JWT_SECRET, MiB, aPost, alice, bob } from '../support/fixtures.js';
import { GONE_USER_ID, issueToken } from '../support/tokens.js';
import {
  allowedMethods,
  buildHttpApi,
  expectError,
  expectJson,
  expectNoContent,
  expectValidationFailure,
  inProcessOnly,
  jsonOfExactSize,
  type HttpApi,
  type HttpTarget,
} from './harness.js';

/** The settings of an app whose posts belong to their authors. */
export const OWNER_ACCESS = { POSTS_ACCESS: 'owner' } as const;

/** A signed-up user as the client holds it. */
interface Session {
  readonly token: string;
  readonly user: PublicUser;
}

const MISSING_ID = '000000000000000000000000';
const auth = (token: string) => ({ authorization: `Bearer ${token}` });
const emptyPage = { posts: [], pagination: { total: 0, page: 1, perPage: 20, lastPage: 1 } };
const aPage = {
  posts: expect.any(Array),
  pagination: { total: expect.any(Number), page: expect.any(Number), perPage: expect.any(Number), lastPage: expect.any(Number) },
};

/**
 * Owned posts (`POSTS_ACCESS=owner`) through HTTP: credentials are checked by the `GET /me` rules
 * on every posts endpoint, writing needs a signed-in author, a draft exists for its author only,
 * only the author changes or deletes a post, and `GET /me/posts` lists the caller's own. Every
 * refusal is followed by reading the data back: a refused write changes nothing.
 */
export function describeOwnedPostsApi(target: HttpTarget): void {
  if (target.env.POSTS_ACCESS !== 'owner') throw new Error(`describeOwnedPostsApi: ${target.label} does not run with POSTS_ACCESS=owner`);
  const local = inProcessOnly(target);

  describe(`owned posts (POSTS_ACCESS=owner) on ${target.label}`, { timeout: target.testTimeoutMs }, () => {
    const api = target.use();

    const signUp = (account: typeof alice | typeof bob): Promise<Session> => api().signUp(account);
    /** Creates a post as the holder of `token`, with no authorId: the server makes them its author. */
    const write = async (token: string, fields: Record<string, unknown> = {}): Promise<Post> => {
      const res = await api().send('POST', '/posts', { title: aPost.title, body: aPost.body, ...fields }, auth(token));
      return ((await expectJson(res, 201, { post: expect.any(Object) })) as { post: Post }).post;
    };
    const read = (id: string, token?: string) => api().request(`/posts/${id}`, token === undefined ? {} : { headers: auth(token) });
    const patch = (id: string, body: unknown, token?: string) =>
      api().send('PATCH', `/posts/${id}`, body, token === undefined ? {} : auth(token));
    const remove = (id: string, token?: string) =>
      api().request(`/posts/${id}`, { method: 'DELETE', ...(token === undefined ? {} : { headers: auth(token) }) });
    const ownPosts = async (token: string, query = ''): Promise<PostPage> =>
      (await expectJson(await api().request(`/me/posts${query}`, { headers: auth(token) }), 200, aPage)) as PostPage;
    const publishedPosts = async (): Promise<PostPage> => (await expectJson(await api().request('/posts'), 200, aPage)) as PostPage;
    /**
     * Asserts no post is stored under any of `authorIds`. A client cannot list another author's
     * drafts, so where the app runs in this process the store itself is asked as well.
     */
    const expectNoPostsUnder = async (...authorIds: string[]) => {
      expect((await publishedPosts()).posts.filter((post) => authorIds.includes(post.authorId))).toStrictEqual([]);
      if (!target.inProcess) return;
      for (const authorId of authorIds) expect(await api().inkwell.store.posts.countByAuthor(authorId)).toBe(0);
    };
    /** Asserts the author reads each post exactly as given: whatever was refused in between changed nothing. */
    const expectUnchanged = async (token: string, ...posts: Post[]) => {
      for (const post of posts) await expectJson(await read(post.id, token), 200, { post });
    };

    /** Alice with a draft and a published post, and Bob with nothing yet. */
    const aliceWritesBobWatches = async () => {
      const a = await signUp(alice);
      const b = await signUp(bob);
      const draft = await write(a.token, { title: 'Alice draft' });
      await api().elapse(1);
      const live = await write(a.token, { title: 'Alice live', published: true });
      return { a, b, draft, live };
    };

    describe('credentials on every posts endpoint, by the GET /me rules', () => {
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

    describe('POST /posts', () => {
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

    describe('GET /posts/{id}', () => {
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

    describe('PATCH /posts/{id}', () => {
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

    describe('DELETE /posts/{id}', () => {
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

    describe('GET /posts', () => {
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

    describe('GET /me/posts', () => {
      it("lists the caller's own posts, drafts included, newest first, and nobody else's", async () => {
        const a = await signUp(alice);
        const b = await signUp(bob);
        const mine: Post[] = [];
        const theirs: Post[] = [];
        for (const published of [false, true, false]) {
          mine.push(await write(a.token, { title: `Alice ${mine.length}`, published }));
          await api().elapse(1);
          theirs.push(await write(b.token, { title: `Bob ${theirs.length}`, published: !published }));
          await api().elapse(1);
        }
        const res = await api().request('/me/posts', { headers: auth(a.token) });
        expect(res.headers.get('cache-control')).toBe('no-store');
        await expectJson(res, 200, { posts: [...mine].reverse(), pagination: { total: 3, page: 1, perPage: 20, lastPage: 1 } });
        expect(await ownPosts(b.token)).toStrictEqual({
          posts: [...theirs].reverse(),
          pagination: { total: 3, page: 1, perPage: 20, lastPage: 1 },
        });
      });

      it('answers an empty first page to a user with no posts', async () => {
        const { b } = await aliceWritesBobWatches();
        expect(await ownPosts(b.token)).toStrictEqual(emptyPage);
      });

      it('pages like GET /posts: perPage, the last partial page, and past the last page no posts with the page echoed', async () => {
        const a = await signUp(alice);
        const created: Post[] = [];
        for (let i = 0; i < 5; i++) {
          created.push(await write(a.token, { title: `Post ${i}`, published: i % 2 === 0 }));
          await api().elapse(1);
        }
        const newest = [...created].reverse();
        expect(await ownPosts(a.token, '?perPage=2')).toStrictEqual({
          posts: newest.slice(0, 2),
          pagination: { total: 5, page: 1, perPage: 2, lastPage: 3 },
        });
        expect(await ownPosts(a.token, '?page=2&perPage=2')).toStrictEqual({
          posts: newest.slice(2, 4),
          pagination: { total: 5, page: 2, perPage: 2, lastPage: 3 },
        });
        expect(await ownPosts(a.token, '?page=3&perPage=2')).toStrictEqual({
          posts: newest.slice(4),
          pagination: { total: 5, page: 3, perPage: 2, lastPage: 3 },
        });
        expect(await ownPosts(a.token, '?page=4&perPage=2')).toStrictEqual({
          posts: [],
          pagination: { total: 5, page: 4, perPage: 2, lastPage: 3 },
        });
        expect(await ownPosts(a.token, '?page=9007199254740991&perPage=100')).toStrictEqual({
          posts: [],
          pagination: { total: 5, page: 9007199254740991, perPage: 100, lastPage: 1 },
        });
        expect(await ownPosts(a.token, '?page=02&perPage=005')).toStrictEqual({
          posts: [],
          pagination: { total: 5, page: 2, perPage: 5, lastPage: 1 },
        });
      });

      it('defaults to page 1 and perPage 20', async () => {
        const a = await signUp(alice);
        const created: Post[] = [];
        for (let i = 0; i < 21; i++) {
          created.push(await write(a.token, { title: `Post ${i}` }));
          await api().elapse(1);
        }
        const first = await ownPosts(a.token);
        expect(first.pagination).toStrictEqual({ total: 21, page: 1, perPage: 20, lastPage: 2 });
        expect(first.posts).toStrictEqual([...created].reverse().slice(0, 20));
        expect((await ownPosts(a.token, '?page=2')).posts).toStrictEqual([created[0]]);
      });

      local.it('orders posts of the same millisecond by id descending, stably across pages', async () => {
        const a = await signUp(alice);
        const created: Post[] = [];
        for (let i = 0; i < 5; i++) created.push(await write(a.token, { title: `Same ${i}`, published: i === 2 }));
        expect(new Set(created.map((p) => p.createdAt)).size).toBe(1);
        const expected = created.map((p) => p.id).sort().reverse();
        const pages = [await ownPosts(a.token, '?perPage=2'), await ownPosts(a.token, '?page=2&perPage=2'), await ownPosts(a.token, '?page=3&perPage=2')];
        expect(pages.flatMap((page) => page.posts.map((p) => p.id))).toEqual(expected);
      });

      it('follows PATCH and DELETE: an edited post shows its new fields, a deleted one is gone', async () => {
        const { a, draft, live } = await aliceWritesBobWatches();
        const { post: published } = (await expectJson(await patch(draft.id, { title: 'Now live', published: true }, a.token), 200, {
          post: expect.any(Object),
        })) as { post: Post };
        expect((await ownPosts(a.token)).posts).toStrictEqual([live, published]);
        await expectNoContent(await remove(live.id, a.token));
        expect(await ownPosts(a.token)).toStrictEqual({ posts: [published], pagination: { total: 1, page: 1, perPage: 20, lastPage: 1 } });
      });

      const invalid: [string, string[]][] = [
        ['?page=0', ['page']],
        ['?page=abc', ['page']],
        ['?page=1.5', ['page']],
        ['?page=9007199254740992', ['page']],
        ['?page=1&page=2', ['page']],
        ['?perPage=0', ['perPage']],
        ['?perPage=101', ['perPage']],
        ['?perPage=-1', ['perPage']],
        ['?page=0&perPage=101', ['page', 'perPage']],
      ];
      it.each(invalid)('answers 400 Validation failed for %s, with Cache-Control: no-store', async (query, paths) => {
        const a = await signUp(alice);
        const res = await api().request(`/me/posts${query}`, { headers: auth(a.token) });
        expect(res.headers.get('cache-control')).toBe('no-store');
        await expectValidationFailure(res, paths);
      });

      it('answers 401 before looking at the query, with Cache-Control: no-store', async () => {
        for (const [headers, message] of [
          [{}, 'Missing authorization header'],
          [{ authorization: 'Bearer garbage' }, 'Invalid token'],
        ] as const) {
          for (const query of ['', '?page=0&perPage=101']) {
            const res = await api().request(`/me/posts${query}`, { headers });
            expect(res.headers.get('cache-control')).toBe('no-store');
            await expectError(res, 401, message);
          }
        }
      });

      it('answers 405 with Allow: GET, HEAD to other methods', async () => {
        const a = await signUp(alice);
        for (const method of ['POST', 'PUT', 'PATCH', 'DELETE']) {
          const res = await api().request('/me/posts', { method, headers: auth(a.token) });
          expect(allowedMethods(res)).toEqual(['GET', 'HEAD']);
          await expectError(res, 405, 'Method not allowed');
        }
        expect(await ownPosts(a.token)).toStrictEqual(emptyPage);
      });
    });

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

    local.it('takes posts written in open mode as owned by the user whose id is their authorId', async () => {
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

/**
 * Open access (the default) knows no owners: `GET /me/posts` is an unknown path, and any
 * `Authorization` header on the post endpoints is ignored, garbage included.
 */
export function describeOpenPostsIgnoreCredentials(api: () => HttpApi): void {
  describe('open access: posts have no owners', () => {
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
