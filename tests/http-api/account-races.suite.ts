import type { Post, PublicSession } from '@inkwell/domain';
import { crossing, holdNextCall } from '@inkwell/domain/testing';
import { describe, expect, it } from 'vitest';
import { PASSWORD, alice } from '../support/fixtures.js';
import { issueTokenWithoutSession } from '../support/tokens.js';
import { expectError, expectJson, expectNoContent, type HttpApi } from './harness.js';
import { auth } from './owner-client.js';

/**
 * Where two crossing requests go: `held`, whose store a test holds between a request's checks
 * and its write, and `other`, which runs the second request to the end meanwhile. One app for
 * both (a store in this process), or two apps with their own repositories on one database, as
 * two processes of one service are.
 */
export interface CrossingApps {
  readonly held: HttpApi;
  readonly other: HttpApi;
}

const P2 = 'the second passphrase';
const P3 = 'the third passphrase';
const signedInShape = { token: expect.any(String), user: expect.any(Object) };

/** The client's steps both race suites take, on either app. */
function raceClient(apps: () => CrossingApps) {
  const logIn = async (app: HttpApi, password = PASSWORD): Promise<string> =>
    ((await expectJson(await app.send('POST', '/auth/login', { email: alice.email, password }), 200, signedInShape)) as { token: string }).token;
  /** Alice signed up through `held` (her laptop) and logged in through `other` (her phone). */
  const aliceOnTwoDevices = async () => {
    const { token: laptop, user } = await apps().held.signUp();
    return { user, laptop, phone: await logIn(apps().other) };
  };
  const change = (app: HttpApi, token: string, newPassword = P2, currentPassword = PASSWORD) =>
    app.send('POST', '/auth/password', { currentPassword, newPassword }, auth(token));
  const remove = (app: HttpApi, token: string) => app.send('DELETE', '/me', { currentPassword: PASSWORD }, auth(token));
  const logOutEverywhere = (app: HttpApi, token: string) => app.send('POST', '/auth/logout', { scope: 'all' }, auth(token));
  const status = async (pending: Promise<Response>) => (await pending).status;
  /** The status `GET /me` answers `token` with, on `other`. */
  const me = (token: string) => status(apps().other.me(token));
  const loginStatus = (password: string) => status(apps().other.send('POST', '/auth/login', { email: alice.email, password }));
  const sessionsOf = async (token: string) =>
    ((await expectJson(await apps().other.request('/me/sessions', { headers: auth(token) }), 200, { sessions: expect.any(Array) })) as {
      sessions: PublicSession[];
    }).sessions;
  return { logIn, aliceOnTwoDevices, change, remove, logOutEverywhere, me, loginStatus, sessionsOf };
}

/**
 * Account changes that cross (docs/security.md, "Account changes that cannot be raced"), through
 * HTTP: each pair of requests with the first held at the exact point between what it checked and
 * what it writes (`holdNextCall` on its store's write) while the second runs to the end. The first
 * then changes nothing and answers what it would have, had it started after the second.
 */
export function describeAccountRaces(apps: () => CrossingApps): void {
  const { logIn, aliceOnTwoDevices, change, remove, logOutEverywhere, me, loginStatus, sessionsOf } = raceClient(apps);
  const held = () => apps().held;
  const other = () => apps().other;
  const users = () => held().inkwell.store.users;

  describe('account changes that cross', () => {
    it('login × password change: a login whose password was replaced meanwhile answers 401 Invalid email or password', async () => {
      const { laptop } = await aliceOnTwoDevices();
      const login = await crossing(
        holdNextCall(users(), 'startSession'),
        () => held().send('POST', '/auth/login', alice),
        async () => expectJson(await change(other(), laptop), 200, { user: expect.any(Object) }),
      );
      await expectError(login, 401, 'Invalid email or password');
      expect((await sessionsOf(laptop)).map((session) => session.current)).toEqual([true]);
      expect([await loginStatus(PASSWORD), await loginStatus(P2)]).toEqual([401, 200]);
    });

    it('login × password change: a login stored before the change is ended by it', async () => {
      const { laptop } = await aliceOnTwoDevices();
      let login = '';
      const changed = await crossing(holdNextCall(users(), 'changePassword'), () => change(held(), laptop), async () => (login = await logIn(other())));
      await expectJson(changed, 200, { user: expect.any(Object) });
      expect([await me(login), await me(laptop)]).toEqual([401, 200]);
    });

    it('password change × password change: the change of a session the other ended answers 401 Invalid token', async () => {
      const { laptop, phone } = await aliceOnTwoDevices();
      const refused = await crossing(holdNextCall(users(), 'changePassword'), () => change(held(), phone, P3), () => change(other(), laptop, P2));
      await expectError(refused, 401, 'Invalid token');
      expect(refused.headers.get('www-authenticate')).toBe('Bearer realm="inkwell", error="invalid_token"');
      expect([await loginStatus(P2), await loginStatus(P3)]).toEqual([200, 401]);
      expect([await me(laptop), await me(phone)]).toEqual([200, 401]);
    });

    it('password change × password change through one session: the second to store answers 403 Current password is incorrect', async () => {
      const { laptop } = await aliceOnTwoDevices();
      const refused = await crossing(holdNextCall(users(), 'changePassword'), () => change(held(), laptop, P3), () => change(other(), laptop, P2));
      await expectError(refused, 403, 'Current password is incorrect');
      expect([await loginStatus(P2), await loginStatus(P3), await me(laptop)]).toEqual([200, 401, 200]);
    });

    it('password change × DELETE /me: a change held while the account was deleted answers 401 User no longer exists', async () => {
      const { laptop, phone } = await aliceOnTwoDevices();
      const refused = await crossing(holdNextCall(users(), 'changePassword'), () => change(held(), phone), () => remove(other(), laptop));
      await expectError(refused, 401, 'User no longer exists');
      expect(await loginStatus(P2)).toBe(401);
    });

    it('password change × DELETE /me: a deletion held while another session changed the password answers 401 Invalid token, deleting nothing', async () => {
      const { user, laptop, phone } = await aliceOnTwoDevices();
      const refused = await crossing(holdNextCall(users(), 'startDeletion'), () => remove(held(), phone), () => change(other(), laptop));
      await expectError(refused, 401, 'Invalid token');
      await expectJson(await other().me(laptop), 200, { user });
      expect(await loginStatus(P2)).toBe(200);
    });

    it('e-mail change × password change: an e-mail change whose session the change ended answers 401 Invalid token, e-mail unchanged', async () => {
      const { user, laptop, phone } = await aliceOnTwoDevices();
      const patch = () => held().send('PATCH', '/me', { email: 'alicia@example.com', currentPassword: PASSWORD }, auth(phone));
      await expectError(await crossing(holdNextCall(users(), 'update'), patch, () => change(other(), laptop)), 401, 'Invalid token');
      await expectJson(await other().me(laptop), 200, { user });
    });

    it('ending a session × logout of the others: a session the logout ended ends nothing, 401 Invalid token', async () => {
      const { laptop, phone } = await aliceOnTwoDevices();
      const [laptopSession] = (await sessionsOf(laptop)).filter((session) => session.current).map((session) => session.id);
      const endLaptop = () => held().request(`/me/sessions/${laptopSession}`, { method: 'DELETE', headers: auth(phone) });
      const othersOut = () => other().send('POST', '/auth/logout', { scope: 'others' }, auth(laptop));
      await expectError(await crossing(holdNextCall(users(), 'endSessions'), endLaptop, othersOut), 401, 'Invalid token');
      expect([await me(laptop), await me(phone)]).toEqual([200, 401]);
    });

    it('refresh × logout everywhere: a refresh held meanwhile answers 401 Invalid token, and its session stays ended', async () => {
      const { laptop, phone } = await aliceOnTwoDevices();
      const refresh = () => held().request('/auth/refresh', { method: 'POST', headers: auth(phone) });
      await expectError(await crossing(holdNextCall(users(), 'extendSession'), refresh, () => logOutEverywhere(other(), laptop)), 401, 'Invalid token');
      expect([await me(phone), await me(laptop)]).toEqual([401, 401]);
    });

    it('refresh × logout everywhere: a token without sid held in its exchange answers 401 Invalid token, and no session starts', async () => {
      const { user, laptop } = await aliceOnTwoDevices();
      const legacy = await issueTokenWithoutSession(user.id, held().clock, held().clock.now() - 1000);
      const refresh = () => held().request('/auth/refresh', { method: 'POST', headers: auth(legacy) });
      await expectError(await crossing(holdNextCall(users(), 'exchangeTokenWithoutSession'), refresh, () => logOutEverywhere(other(), laptop)), 401, 'Invalid token');
      const again = await logIn(other());
      expect((await sessionsOf(again)).map((session) => session.current)).toEqual([true]);
      expect(await me(legacy)).toBe(401);
    });
  });
}

/** Owned posts (`POSTS_ACCESS=owner`) and the deletion of their author's account, crossing. */
export function describeOwnedPostRaces(apps: () => CrossingApps): void {
  const { aliceOnTwoDevices, remove } = raceClient(apps);
  const held = () => apps().held;
  const other = () => apps().other;
  const write = (app: HttpApi, token: string) =>
    app.send('POST', '/posts', { title: 'Late', body: 'Written while the account went away', published: true }, auth(token));
  /** No post of `authorId` anywhere: not listed, and not in the store. */
  const expectNoPostsOf = async (authorId: string) => {
    const { posts } = (await expectJson(await other().request('/posts'), 200, { posts: expect.any(Array), pagination: expect.any(Object) })) as {
      posts: Post[];
    };
    expect(posts.filter((post) => post.authorId === authorId)).toEqual([]);
    expect(await other().inkwell.store.posts.countByAuthor(authorId)).toBe(0);
  };

  describe('POST /posts × DELETE /me', () => {
    it('answers 401 User no longer exists to a post whose body was still arriving when its account was deleted, and stores nothing', async () => {
      const { user, laptop, phone } = await aliceOnTwoDevices();
      const body = new TextEncoder().encode(JSON.stringify({ title: 'Late', body: 'Sent slowly', published: true }));
      let sendRest!: () => void;
      const stream = new ReadableStream<Uint8Array>({
        async start(controller) {
          controller.enqueue(body.subarray(0, 10));
          await new Promise<void>((resolve) => (sendRest = resolve));
          controller.enqueue(body.subarray(10));
          controller.close();
        },
      });
      const headers = { ...auth(phone), 'content-type': 'application/json' };
      const posting = held().request('/posts', { method: 'POST', headers, body: stream, duplex: 'half' } as RequestInit);
      await expectNoContent(await remove(other(), laptop));
      sendRest();
      await expectError(await posting, 401, 'User no longer exists');
      await expectNoPostsOf(user.id);
    });

    it('takes back a post held before its insert while the account was deleted: 401 User no longer exists', async () => {
      const { user, laptop, phone } = await aliceOnTwoDevices();
      const refused = await crossing(holdNextCall(held().inkwell.store.posts, 'insert'), () => write(held(), phone), () => remove(other(), laptop));
      await expectError(refused, 401, 'User no longer exists');
      await expectNoPostsOf(user.id);
    });

    it('deletes a post stored while the deletion was held before its decision', async () => {
      const { user, laptop, phone } = await aliceOnTwoDevices();
      let stored: Post | undefined;
      const store = async () => (stored = ((await expectJson(await write(other(), phone), 201, { post: expect.any(Object) })) as { post: Post }).post);
      await expectNoContent(await crossing(holdNextCall(held().inkwell.store.users, 'startDeletion'), () => remove(held(), laptop), store));
      await expectError(await other().request(`/posts/${stored?.id}`), 404, 'Post not found');
      await expectNoPostsOf(user.id);
    });
  });
}
