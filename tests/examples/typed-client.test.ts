import { createInkwellClient } from '@inkwell/adapters-http/client';
import type { Post, PostPage, PublicUser } from '@inkwell/domain';
import { afterAll, beforeAll, describe, expect, expectTypeOf, it } from 'vitest';
import { readConfig, createLogger, startServer, type RunningServer } from '@inkwell/app';
import { typedClientExample } from './typed-client.js';
import { TEST_JWT_SECRET as JWT_SECRET } from '../support/fixtures.js';

/** A real server on the memory store with `env` on top (`POSTS_ACCESS`). */
const serve = (env: Record<string, string> = {}) =>
  startServer(
    readConfig({ PORT: '0', HOST: '127.0.0.1', DB_URL: 'memory:', JWT_SECRET, NODE_ENV: 'test', HASH_WORKERS: '1', ...env }),
    createLogger('silent'),
  );

describe('the typed client (hono/client over AppType) against a running server', () => {
  // The contract as written (open), and a server whose posts have owners.
  let server: RunningServer;
  let ownerServer: RunningServer;

  beforeAll(async () => {
    [server, ownerServer] = await Promise.all([serve(), serve({ POSTS_ACCESS: 'owner' })]);
  });
  afterAll(() => Promise.all([server?.close(), ownerServer?.close()]));

  it("runs the example in docs/api.md on a server whose posts have owners", { timeout: 20_000 }, async () => {
    const result = await typedClientExample(ownerServer.url);
    expect(result).toStrictEqual({ name: 'Ada', postId: expect.any(String), mine: ['Hello', 'Draft'], titles: ['Hello'] });
  });

  it("signs up, logs in, reads /me, and takes a post through its whole life", { timeout: 20_000 }, async () => {
    const api = createInkwellClient(server.url);
    const account = { email: 'bob@example.com', name: 'Bob', password: 'correct horse battery staple' };

    const signup = await api.auth.signup.$post({ json: account });
    expect(signup.status).toBe(201);
    const session = await signup.json();
    expectTypeOf(session.user).toExtend<PublicUser>();
    expectTypeOf(session.token).toEqualTypeOf<string>();

    const login = await api.auth.login.$post({ json: { email: ' BOB@example.com ', password: account.password } });
    expect(login.status).toBe(200);
    const { token, user } = await login.json();
    expect(user).toStrictEqual(session.user);

    const me = await api.me.$get({}, { headers: { authorization: `Bearer ${token}` } });
    expect(await me.json()).toStrictEqual({ user: { id: user.id, email: 'bob@example.com', name: 'Bob', emailVerified: false } });
    expectTypeOf<Awaited<ReturnType<typeof me.json>>['user']>().toExtend<PublicUser>();

    const created = await api.posts.$post({ json: { title: 'Draft', body: 'Not yet', authorId: user.id } });
    expect(created.status).toBe(201);
    const { post } = await created.json();
    expectTypeOf(post).toExtend<Post>();
    expect(post).toMatchObject({ title: 'Draft', body: 'Not yet', authorId: user.id, published: false });

    const read = await api.posts[':id'].$get({ param: { id: post.id } });
    expect(await read.json()).toStrictEqual({ post });

    const before = await (await api.posts.$get({ query: {} })).json();
    expect(before.posts.map((listed) => listed.id)).not.toContain(post.id);

    const patched = await api.posts[':id'].$patch({ param: { id: post.id }, json: { title: 'Live', published: true } });
    expect(patched.status).toBe(200);
    const { post: live } = await patched.json();
    expect(live).toMatchObject({ id: post.id, title: 'Live', published: true, createdAt: post.createdAt });

    const page = await (await api.posts.$get({ query: { page: '1', perPage: '10' } })).json();
    expect(page.posts.map((listed) => listed.id)).toContain(post.id);
    expect(page.pagination).toMatchObject({ page: 1, perPage: 10 });

    const deleted = await api.posts[':id'].$delete({ param: { id: post.id } });
    expect(deleted.status).toBe(204);
    expect(await deleted.text()).toBe('');
    const gone = await api.posts[':id'].$get({ param: { id: post.id } });
    expect(gone.status).toBe(404);
    expect(await gone.json()).toStrictEqual({ error: 'Post not found' });
  });

  it('lists the caller\'s own posts with GET /me/posts, typed as a page of posts', { timeout: 20_000 }, async () => {
    const api = createInkwellClient(ownerServer.url);
    const signup = await api.auth.signup.$post({ json: { email: 'cy@example.com', name: 'Cy', password: 'correct horse battery staple' } });
    expect(signup.status).toBe(201);
    const { token, user } = await signup.json();
    const signedIn = { headers: { authorization: `Bearer ${token}` } };

    const created = await api.posts.$post({ json: { title: 'Draft', body: 'Not yet' } }, signedIn);
    expect(created.status).toBe(201);
    const { post: draft } = await created.json();
    expect(draft).toMatchObject({ authorId: user.id, published: false });

    const listed = await api.me.posts.$get({ query: { page: '1', perPage: '10' } }, signedIn);
    expect(listed.status).toBe(200);
    expect(listed.headers.get('cache-control')).toBe('no-store');
    const page = await listed.json();
    expectTypeOf(page).toExtend<PostPage>();
    expect(page).toStrictEqual({ posts: [draft], pagination: { total: 1, page: 1, perPage: 10, lastPage: 1 } });

    const anonymous = await api.me.posts.$get({ query: {} });
    expect(anonymous.status).toBe(401);
    expect(await anonymous.json()).toStrictEqual({ error: 'Missing authorization header' });
    const invalid = await api.me.posts.$get({ query: { perPage: '101' } }, signedIn);
    expect(invalid.status).toBe(400);
    expect(await invalid.json()).toMatchObject({ error: 'Validation failed', issues: [{ path: 'perPage' }] });

    // The published list stays without drafts; on an open server /me/posts is not a route at all.
    const published = await (await api.posts.$get({ query: { perPage: '100' } })).json();
    expect(published.posts.map((listed) => listed.id)).not.toContain(draft.id);
    const open = await createInkwellClient(server.url).me.posts.$get({ query: {} }, signedIn);
    expect(open.status).toBe(404);
    expect(await open.json()).toStrictEqual({ error: 'Not found' });
  });

  it('types the request bodies and queries from the domain schemas (checked by tsc)', () => {
    const api = createInkwellClient(server.url);
    // Never called: these lines exist for the type checker, which must reject each marked one.
    const unsent = () => [
      // @ts-expect-error: signup sends a body
      api.auth.signup.$post({}),
      // @ts-expect-error: `password` is required on signup
      api.auth.signup.$post({ json: { email: 'a@example.com', name: 'A' } }),
      // @ts-expect-error: `published` is a boolean, not a string
      api.posts.$post({ json: { title: 't', body: 'b', authorId: 'a', published: 'yes' } }),
      // @ts-expect-error: `title` is a string
      api.posts[':id'].$patch({ param: { id: 'x' }, json: { title: 1 } }),
      // @ts-expect-error: query values are sent as strings
      api.posts.$get({ query: { page: 1 } }),
      // @ts-expect-error: the same query rules on /me/posts
      api.me.posts.$get({ query: { perPage: 5 } }),
      // Logging out may leave the body out; when sent, it is checked.
      api.auth.logout.$post({}),
      // @ts-expect-error: `scope` is one of current, others, all
      api.auth.logout.$post({ json: { scope: 'everywhere' } }),
    ];
    expect(typeof unsent).toBe('function');
  });
});
