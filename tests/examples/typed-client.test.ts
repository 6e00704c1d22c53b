import { createInkwellClient, etagOf } from '@inkwell/adapters-http/client';
import type { Account, Post, PostPage, PublicUser } from '@inkwell/domain';
import { afterAll, beforeAll, describe, expect, expectTypeOf, it, vi } from 'vitest';
import { readConfig, createLogger, startServer, type RunningServer } from '@inkwell/app';
import { typedClientExample } from './typed-client.js';
import { TEST_JWT_SECRET as JWT_SECRET } from '../support/fixtures.js';
import { capturedPino } from '../support/logs.js';

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
    expect(result).toStrictEqual({
      name: 'Ada',
      postId: expect.any(String),
      replayed: 'true',
      edits: [200, 412],
      mine: ['Hello again', 'Draft'],
      titles: ['Hello again'],
    });
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
    expect(await me.json()).toStrictEqual({ user: { id: user.id, email: 'bob@example.com', name: 'Bob' } });
    expectTypeOf<Awaited<ReturnType<typeof me.json>>['user']>().toEqualTypeOf<PublicUser>();

    const accountRes = await api.me.account.$get({}, { headers: { authorization: `Bearer ${token}` } });
    const { account: state } = await accountRes.json();
    expectTypeOf(state).toEqualTypeOf<Account>();
    expect(state).toStrictEqual({ ...user, emailVerified: false, createdAt: expect.any(Number), updatedAt: state.createdAt });

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

  it('sends If-None-Match, If-Match and Idempotency-Key as typed headers, and reads the ETag of each answer', { timeout: 20_000 }, async () => {
    const api = createInkwellClient(server.url);
    const json = { title: 'Versioned', body: 'b', authorId: 'a', published: true };
    const created = await api.posts.$post({ json, header: { 'Idempotency-Key': 'typed-1' } });
    const again = await api.posts.$post({ json, header: { 'Idempotency-Key': 'typed-1' } });
    const { post } = await created.json();
    expect([created.status, again.status, again.headers.get('idempotent-replayed'), etagOf(again)]).toEqual([201, 201, 'true', etagOf(created)]);

    const first = etagOf(created) as string;
    const unchanged = await api.posts[':id'].$get({ param: { id: post.id }, header: { 'If-None-Match': first } });
    expect([unchanged.status, etagOf(unchanged), await unchanged.text()]).toEqual([304, first, '']);
    const saved = await api.posts[':id'].$patch({ param: { id: post.id }, json: { title: 'Edited' }, header: { 'If-Match': first } });
    const stale = await api.posts[':id'].$delete({ param: { id: post.id }, header: { 'If-Match': first } });
    expect([saved.status, stale.status, etagOf(stale)]).toEqual([200, 412, etagOf(saved)]);
    expect(etagOf(saved)).not.toBe(first);
    const changed = await api.posts[':id'].$get({ param: { id: post.id }, header: { 'If-None-Match': first } });
    expect([changed.status, etagOf(changed)]).toEqual([200, etagOf(saved)]);
    expect(await api.posts.$get({ query: {} }).then(etagOf)).toBeNull();
    // @ts-expect-error: PATCH takes no Idempotency-Key
    void (() => api.posts[':id'].$patch({ param: { id: post.id }, json: {}, header: { 'Idempotency-Key': 'k' } }));
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

  it('recovers and verifies an account through the mail endpoints, typed, with the links the server mailed', { timeout: 20_000 }, async () => {
    // Mail as `pnpm dev` has it: each mail a `log:` line, read back here.
    const { logger, capture } = capturedPino();
    const mailing = await startServer(readConfig({ PORT: '0', HOST: '127.0.0.1', DB_URL: 'memory:', JWT_SECRET, NODE_ENV: 'test', HASH_WORKERS: '1' }), logger);
    try {
      const api = createInkwellClient(mailing.url);
      const linkTo = async (page: string) => {
        let token = '';
        await vi.waitFor(() => {
          const links = capture.records().flatMap((record) => ((record.mail as { link?: string } | undefined)?.link?.includes(`/${page}?`) ? [record.mail as { link: string }] : []));
          token = new URL((links[0] as { link: string }).link).searchParams.get('token') ?? '';
        });
        return token;
      };
      const signup = await api.auth.signup.$post({ json: { email: 'dee@example.com', name: 'Dee', password: 'correct horse battery staple' } });
      const { token } = await signup.json();
      const signedIn = { headers: { authorization: `Bearer ${token}` } };

      const verified = await api.auth['verify-email'].$post({ json: { token: await linkTo('verify-email') } });
      expect(verified.status).toBe(200);
      const { account } = await verified.json();
      expectTypeOf(account).toEqualTypeOf<Account>();
      expect(account).toStrictEqual({ id: expect.any(String), email: 'dee@example.com', name: 'Dee', emailVerified: true, createdAt: expect.any(Number), updatedAt: expect.any(Number) });
      expect(await (await api.me.account.$get({}, signedIn)).json()).toStrictEqual({ account });
      const { id, email, name } = account;
      const user: PublicUser = { id, email, name };
      const again = await api.me['verify-email'].$post({}, signedIn);
      expect(again.status).toBe(409);
      expect(await again.json()).toStrictEqual({ error: 'Email already verified' });

      const asked = await api.auth['password-reset'].$post({ json: { email: ' DEE@example.com ' } });
      expect(asked.status).toBe(202);
      expect(await asked.json()).toStrictEqual({});
      const reset = await api.auth['password-reset'].confirm.$post({ json: { token: await linkTo('reset-password'), newPassword: 'a brand new passphrase' } });
      expect(reset.status).toBe(200);
      const session = await reset.json();
      expectTypeOf(session.token).toEqualTypeOf<string>();
      expect(session).toStrictEqual({ token: expect.any(String), user });
      const refused = await api.auth['verify-email'].$post({ json: { token: 'not a link token' } });
      expect(refused.status).toBe(400);
      expect(await refused.json()).toStrictEqual({ error: 'Invalid or expired token' });
    } finally {
      await mailing.close();
    }
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
      // @ts-expect-error: a reset is asked for an `email`
      api.auth['password-reset'].$post({ json: { address: 'a@example.com' } }),
      // @ts-expect-error: confirming takes the new password too
      api.auth['password-reset'].confirm.$post({ json: { token: 't' } }),
    ];
    expect(typeof unsent).toBe('function');
  });
});
