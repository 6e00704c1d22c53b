import { DomainError, type PublicSession, type PublicUser } from '@inkwell/domain';
import { decodeJwt } from 'jose';
import { describe, expect, it } from 'vitest';
import { MiB, PASSWORD, SEVEN_DAYS_MS, aPost, alice, bob } from '../support/fixtures.js';
import { issueTokenWithoutSession } from '../support/tokens.js';
import {
  allowedMethods,
  expectError,
  expectJson,
  expectNoContent,
  expectValidationFailure,
  inProcessOnly,
  type HttpApi,
  type HttpTarget,
} from './harness.js';

const DAY_MS = 24 * 60 * 60 * 1000;
const NEW_PASSWORD = 'a brand new passphrase';
const auth = (token: string) => ({ authorization: `Bearer ${token}` });
const sidOf = (token: string) => decodeJwt(token).sid as string;
const signedInShape = { token: expect.any(String), user: expect.any(Object) };

/** The challenges of a 401 (RFC 6750 §3): no error code when no token was refused, `invalid_token` when one was. */
const NO_TOKEN_CHALLENGE = 'Bearer realm="inkwell"';
const REFUSED_TOKEN_CHALLENGE = 'Bearer realm="inkwell", error="invalid_token"';

/**
 * Sessions and the account's own changes through HTTP (docs/api.md, Sessions): logout in each
 * scope, the session list, ending one session, refresh, password change, `PATCH /me` and
 * `DELETE /me`. Each rule is checked by what a client sees next: which tokens still work, who can
 * log in, what is left.
 */
export function describeSessionsApi(api: () => HttpApi, target: HttpTarget): void {
  const local = inProcessOnly(target);

  /** Alice signed up, and logged in `logins` more times: her tokens, oldest first. */
  async function aliceWithTokens(logins = 2): Promise<{ user: PublicUser; tokens: string[] }> {
    const { token, user } = await api().signUp();
    const tokens = [token];
    for (let i = 0; i < logins; i++) tokens.push(await logIn());
    return { user, tokens };
  }
  async function logIn(account: { email: string; password: string } = alice): Promise<string> {
    const res = await api().send('POST', '/auth/login', { email: account.email, password: account.password });
    return ((await expectJson(res, 200, signedInShape)) as { token: string }).token;
  }
  /** Which of `tokens` `GET /me` accepts right now. */
  const working = async (tokens: readonly string[]) => Promise.all(tokens.map(async (token) => (await api().me(token)).status === 200));
  const sessionsOf = async (token: string): Promise<PublicSession[]> =>
    ((await expectJson(await api().request('/me/sessions', { headers: auth(token) }), 200, { sessions: expect.any(Array) })) as {
      sessions: PublicSession[];
    }).sessions;
  const logOut = (token: string, body?: unknown) =>
    body === undefined ? api().request('/auth/logout', { method: 'POST', headers: auth(token) }) : api().send('POST', '/auth/logout', body, auth(token));

  describe('sessions: tokens name them', () => {
    it('gives every signup and login a session of its own, named in the token as sid', async () => {
      const { tokens } = await aliceWithTokens(2);
      const sids = tokens.map(sidOf);
      expect(new Set(sids).size).toBe(3);
      for (const sid of sids) expect(sid).toEqual(expect.any(String));
      const claims = decodeJwt(tokens[0] as string);
      expect(Object.keys(claims).sort()).toEqual(['exp', 'iat', 'sid', 'sub']);
      expect((claims.exp as number) - (claims.iat as number)).toBe(SEVEN_DAYS_MS / 1000);
    });

    it('lists the live sessions newest first with ids and times, marking the caller\'s own, and Cache-Control: no-store', async () => {
      const { tokens } = await aliceWithTokens(2);
      const res = await api().request('/me/sessions', { headers: auth(tokens[1] as string) });
      expect(res.headers.get('cache-control')).toBe('no-store');
      const { sessions } = (await expectJson(res, 200, { sessions: expect.any(Array) })) as { sessions: PublicSession[] };
      expect(sessions.map((session) => session.id)).toEqual([...tokens].reverse().map(sidOf));
      expect(sessions.map((session) => session.current)).toEqual([false, true, false]);
      for (const session of sessions) {
        expect(Object.keys(session).sort()).toEqual(['createdAt', 'current', 'expiresAt', 'id']);
        expect(session.expiresAt - session.createdAt).toBe(SEVEN_DAYS_MS);
      }
      expect(JSON.stringify(sessions)).not.toMatch(/eyJ/);
    });

    it("shows one account none of another's sessions", async () => {
      await aliceWithTokens(2);
      const other = await api().signUp(bob);
      expect((await sessionsOf(other.token)).map((session) => session.id)).toEqual([sidOf(other.token)]);
    });

    local.it('keeps at most SESSIONS_MAX_PER_USER (20) sessions: a login past it ends the oldest', async () => {
      const { tokens } = await aliceWithTokens(20);
      expect(await working(tokens)).toEqual([false, ...Array<boolean>(20).fill(true)]);
      expect((await sessionsOf(tokens[20] as string)).map((session) => session.id)).toEqual(tokens.slice(1).reverse().map(sidOf));
    });

    local.it('refuses a token once its session expired, 7 days after login, though the token was refreshed by nobody', async () => {
      const { tokens } = await aliceWithTokens(0);
      api().clock.advance(SEVEN_DAYS_MS - 1000);
      expect(await working(tokens)).toEqual([true]);
      api().clock.advance(1000);
      await expectError(await api().me(tokens[0] as string), 401, 'Invalid token');
    });
  });

  describe('POST /auth/logout', () => {
    it('ends the caller\'s session only, with no body: 204, then 401 Invalid token for its tokens everywhere', async () => {
      const { tokens } = await aliceWithTokens(2);
      const res = await logOut(tokens[0] as string);
      await expectNoContent(res);
      expect(res.headers.get('cache-control')).toBe('no-store');
      expect(await working(tokens)).toEqual([false, true, true]);
      const refused = await api().me(tokens[0] as string);
      expect(refused.headers.get('www-authenticate')).toBe(REFUSED_TOKEN_CHALLENGE);
      await expectError(refused, 401, 'Invalid token');
      await expectError(await logOut(tokens[0] as string), 401, 'Invalid token');
    });

    it('ends the caller\'s session with { scope: "current" } and with {}', async () => {
      const { tokens } = await aliceWithTokens(2);
      await expectNoContent(await logOut(tokens[0] as string, { scope: 'current' }));
      await expectNoContent(await logOut(tokens[1] as string, {}));
      expect(await working(tokens)).toEqual([false, false, true]);
    });

    it('ends every other session with { scope: "others" } and every one with { scope: "all" }', async () => {
      const { tokens } = await aliceWithTokens(3);
      await expectNoContent(await logOut(tokens[1] as string, { scope: 'others' }));
      expect(await working(tokens)).toEqual([false, true, false, false]);
      const again = await logIn();
      await expectNoContent(await logOut(again, { scope: 'all' }));
      expect(await working([...tokens, again])).toEqual([false, false, false, false, false]);
      // Logging in again starts afresh.
      expect(await working([await logIn()])).toEqual([true]);
    });

    it('ends tokens without a session (issued before tokens named sessions) with "others" and "all", not with "current"', async () => {
      const { user, tokens } = await aliceWithTokens(1);
      const legacy = await issueTokenWithoutSession(user.id, api().clock);
      expect(await working([legacy])).toEqual([true]);
      await expectNoContent(await logOut(tokens[0] as string));
      expect(await working([legacy, tokens[1] as string])).toEqual([true, true]);
      await expectNoContent(await logOut(tokens[1] as string, { scope: 'others' }));
      expect(await working([legacy, tokens[1] as string])).toEqual([false, true]);
    });

    it('ends every token without a session when one of them logs out (they cannot be told apart), leaving the sessions', async () => {
      const { user, tokens } = await aliceWithTokens(1);
      const legacy = await issueTokenWithoutSession(user.id, api().clock);
      await expectNoContent(await logOut(legacy));
      expect(await working([legacy, ...tokens])).toEqual([false, true, true]);
    });

    it('answers 400 Validation failed at scope for any other scope, ending nothing', async () => {
      const { tokens } = await aliceWithTokens(1);
      for (const scope of ['everywhere', 'ALL', '', null, 1, ['all']]) {
        await expectValidationFailure(await logOut(tokens[0] as string, { scope }), ['scope']);
      }
      expect(await working(tokens)).toEqual([true, true]);
    });

    it('reads a body only once the token passed: 401 before 415, 413 or a bad scope', async () => {
      const { tokens } = await aliceWithTokens(0);
      await expectError(await api().send('POST', '/auth/logout', { scope: 'nope' }), 401, 'Missing authorization header');
      await expectError(
        await api().request('/auth/logout', { method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'x' }),
        401,
        'Missing authorization header',
      );
      await expectError(await api().send('POST', '/auth/logout', ' '.repeat(MiB + 1), auth('garbage')), 401, 'Invalid token');
      const headers = { ...auth(tokens[0] as string), 'content-type': 'text/plain' };
      await expectError(await api().request('/auth/logout', { method: 'POST', headers, body: 'scope=all' }), 415, 'Content-Type must be application/json');
      await expectError(await api().send('POST', '/auth/logout', `{"scope":"all","pad":"${' '.repeat(MiB)}"}`, auth(tokens[0] as string)), 413, 'Request body too large');
      await expectError(await api().send('POST', '/auth/logout', '[', auth(tokens[0] as string)), 400, 'Invalid JSON body');
      expect(await working(tokens)).toEqual([true]);
    });
  });

  describe('DELETE /me/sessions/{id}', () => {
    it('ends that session of the account: 204, and its tokens are refused from then on', async () => {
      const { tokens } = await aliceWithTokens(2);
      const res = await api().request(`/me/sessions/${sidOf(tokens[1] as string)}`, { method: 'DELETE', headers: auth(tokens[0] as string) });
      await expectNoContent(res);
      expect(await working(tokens)).toEqual([true, false, true]);
    });

    it("ends the caller's own session when asked", async () => {
      const { tokens } = await aliceWithTokens(1);
      await expectNoContent(await api().request(`/me/sessions/${sidOf(tokens[0] as string)}`, { method: 'DELETE', headers: auth(tokens[0] as string) }));
      expect(await working(tokens)).toEqual([false, true]);
    });

    it("answers 404 Session not found for another account's session, an ended one or any other id, ending nothing", async () => {
      const { tokens } = await aliceWithTokens(1);
      const other = await api().signUp(bob);
      await logOut(tokens[1] as string);
      for (const id of [sidOf(other.token), sidOf(tokens[1] as string), 'nope', 'x'.repeat(10_000), '%7B%22%24ne%22%3Anull%7D']) {
        await expectError(await api().request(`/me/sessions/${id}`, { method: 'DELETE', headers: auth(tokens[0] as string) }), 404, 'Session not found');
      }
      expect(await working([tokens[0] as string, other.token])).toEqual([true, true]);
    });

    it('answers 401 by the GET /me rules before looking at the id', async () => {
      const { tokens } = await aliceWithTokens(0);
      const id = sidOf(tokens[0] as string);
      await expectError(await api().request(`/me/sessions/${id}`, { method: 'DELETE' }), 401, 'Missing authorization header');
      await expectError(await api().request(`/me/sessions/${id}`, { method: 'DELETE', headers: auth('garbage') }), 401, 'Invalid token');
      expect(await working(tokens)).toEqual([true]);
    });
  });

  describe('POST /auth/refresh', () => {
    it('answers 200 { token, user }: a new token of the same session, while the old one keeps working', async () => {
      const { user, tokens } = await aliceWithTokens(0);
      await api().elapse(1000);
      const res = await api().request('/auth/refresh', { method: 'POST', headers: auth(tokens[0] as string) });
      expect(res.headers.get('cache-control')).toBe('no-store');
      const { token } = (await expectJson(res, 200, { token: expect.any(String), user })) as { token: string };
      expect(token).not.toBe(tokens[0]);
      expect(sidOf(token)).toBe(sidOf(tokens[0] as string));
      expect(await working([tokens[0] as string, token])).toEqual([true, true]);
      // The session now ends with the new token.
      const [session] = await sessionsOf(token);
      expect(Math.floor((session?.expiresAt ?? 0) / 1000)).toBe(decodeJwt(token).exp);
      // Both end with the session.
      await expectNoContent(await logOut(token));
      expect(await working([tokens[0] as string, token])).toEqual([false, false]);
      await expectError(await api().request('/auth/refresh', { method: 'POST', headers: auth(token) }), 401, 'Invalid token');
    });

    local.it('slides the session 7 days at a time, never past 30 days after its login (SESSION_MAX_AGE_DAYS)', async () => {
      const { tokens } = await aliceWithTokens(0);
      const loginAt = api().clock.now();
      let token = tokens[0] as string;
      for (let day = 6; day < 30; day += 6) {
        api().clock.set(loginAt + day * DAY_MS);
        token = ((await expectJson(await api().request('/auth/refresh', { method: 'POST', headers: auth(token) }), 200, signedInShape)) as { token: string }).token;
      }
      expect((await sessionsOf(token))[0]?.expiresAt).toBe(loginAt + 30 * DAY_MS);
      api().clock.set(loginAt + 30 * DAY_MS);
      await expectError(await api().request('/auth/refresh', { method: 'POST', headers: auth(token) }), 401, 'Invalid token');
      await expectError(await api().me(token), 401, 'Invalid token');
    });

    local.it('keeps an older token of the session until its own expiry', async () => {
      const { tokens } = await aliceWithTokens(0);
      api().clock.advance(6 * DAY_MS);
      const { token } = (await expectJson(await api().request('/auth/refresh', { method: 'POST', headers: auth(tokens[0] as string) }), 200, signedInShape)) as {
        token: string;
      };
      api().clock.advance(DAY_MS);
      expect(await working([tokens[0] as string, token])).toEqual([false, true]);
    });

    it('exchanges a token without sid for a session once: of 20 refreshes one answers 200, the rest 401, and every session stays', async () => {
      const { user, tokens } = await aliceWithTokens(2);
      const legacy = await issueTokenWithoutSession(user.id, api().clock, api().clock.now() - 1000);
      const answers = await Promise.all(Array.from({ length: 20 }, () => api().request('/auth/refresh', { method: 'POST', headers: auth(legacy) })));
      expect(answers.map((res) => res.status).sort()).toEqual([200, ...Array<number>(19).fill(401)]);
      const bodies = (await Promise.all(answers.map((res) => res.json()))) as { token?: string }[];
      const exchanged = bodies.flatMap((body) => (body.token === undefined ? [] : [body.token]));
      expect(await working([...tokens, ...exchanged, legacy])).toEqual([true, true, true, true, false]);
      expect(await sessionsOf(tokens[0] as string)).toHaveLength(4);
      for (const token of tokens) await expectNoContent(await logOut(token));
    });

    it('answers 401 by the GET /me rules', async () => {
      await expectError(await api().request('/auth/refresh', { method: 'POST' }), 401, 'Missing authorization header');
      await expectError(await api().request('/auth/refresh', { method: 'POST', headers: auth('garbage') }), 401, 'Invalid token');
    });
  });

  describe('POST /auth/password', () => {
    const change = (token: string, body: unknown) => api().send('POST', '/auth/password', body, auth(token));

    it('answers 200 { user }; every other session ends, the caller\'s continues, and only the new password logs in', async () => {
      const { user, tokens } = await aliceWithTokens(2);
      const legacy = await issueTokenWithoutSession(user.id, api().clock);
      const res = await change(tokens[1] as string, { currentPassword: PASSWORD, newPassword: NEW_PASSWORD });
      expect(res.headers.get('cache-control')).toBe('no-store');
      await expectJson(res, 200, { user });
      expect(await working([...tokens, legacy])).toEqual([false, true, false, false]);
      await expectError(await api().send('POST', '/auth/login', alice), 401, 'Invalid email or password');
      expect(await working([await logIn({ email: alice.email, password: NEW_PASSWORD })])).toEqual([true]);
    });

    it("keeps the caller working when the change is made with a token without sid; every other token ends", async () => {
      const { user, tokens } = await aliceWithTokens(1);
      const caller = await issueTokenWithoutSession(user.id, api().clock, api().clock.now() - 2000);
      const other = await issueTokenWithoutSession(user.id, api().clock, api().clock.now() - 1000);
      await expectJson(await change(caller, { currentPassword: PASSWORD, newPassword: NEW_PASSWORD }), 200, { user });
      expect(await working([...tokens, other, caller])).toEqual([false, false, false, true]);
      await expectJson(await change(caller, { currentPassword: NEW_PASSWORD, newPassword: PASSWORD }), 200, { user });
      // Logging out everywhere ends it like any other.
      const fresh = await logIn();
      await expectNoContent(await logOut(fresh, { scope: 'all' }));
      expect(await working([caller])).toEqual([false]);
    });

    it('answers 403 Current password is incorrect for a wrong one, changing nothing and ending nothing', async () => {
      const { tokens } = await aliceWithTokens(1);
      await expectError(await change(tokens[0] as string, { currentPassword: 'not it at all', newPassword: NEW_PASSWORD }), 403, 'Current password is incorrect');
      expect(await working(tokens)).toEqual([true, true]);
      await logIn();
      await expectError(await api().send('POST', '/auth/login', { email: alice.email, password: NEW_PASSWORD }), 401, 'Invalid email or password');
    });

    it('counts wrong current passwords as failed logins of the e-mail: 429 with Retry-After past the limit, for login too', async () => {
      const { tokens } = await aliceWithTokens(0);
      const statuses: number[] = [];
      for (let i = 0; i < 11; i++) statuses.push((await change(tokens[0] as string, { currentPassword: `guess ${i}`, newPassword: NEW_PASSWORD })).status);
      expect(statuses).toEqual([...Array<number>(10).fill(403), 429]);
      const limited = await change(tokens[0] as string, { currentPassword: PASSWORD, newPassword: NEW_PASSWORD });
      expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
      await expectError(limited, 429, 'Too many attempts, try again later');
      await expectError(await api().send('POST', '/auth/login', alice), 429, 'Too many attempts, try again later');
    });

    it('answers 400 listing every problem, with the signup rules for the new password', async () => {
      const { tokens } = await aliceWithTokens(0);
      await expectValidationFailure(await change(tokens[0] as string, {}), ['currentPassword', 'newPassword']);
      await expectValidationFailure(await change(tokens[0] as string, { currentPassword: PASSWORD, newPassword: 'short' }), ['newPassword']);
      await expectValidationFailure(await change(tokens[0] as string, { currentPassword: PASSWORD, newPassword: 'é'.repeat(37) }), ['newPassword']);
      await expectValidationFailure(await change(tokens[0] as string, { currentPassword: 7, newPassword: ['x'] }), ['currentPassword', 'newPassword']);
    });

    it('answers 401 before reading the body', async () => {
      await expectError(await api().send('POST', '/auth/password', '[', {}), 401, 'Missing authorization header');
      await expectError(await api().send('POST', '/auth/password', { currentPassword: PASSWORD, newPassword: NEW_PASSWORD }, auth('x')), 401, 'Invalid token');
    });
  });

  describe('PATCH /me', () => {
    const patch = (token: string, body: unknown) => api().send('PATCH', '/me', body, auth(token));

    it('changes the name (no password needed) and answers 200 { user } with no-store; sessions go on', async () => {
      const { user, tokens } = await aliceWithTokens(1);
      const res = await patch(tokens[0] as string, { name: 'Alicia' });
      expect(res.headers.get('cache-control')).toBe('no-store');
      await expectJson(res, 200, { user: { ...user, name: 'Alicia' } });
      await expectJson(await api().me(tokens[1] as string), 200, { user: { ...user, name: 'Alicia' } });
      expect(await working(tokens)).toEqual([true, true]);
    });

    it('changes the e-mail, trimmed and lower-cased, with the current password; the old one is free to sign up', async () => {
      const { user, tokens } = await aliceWithTokens(0);
      await expectJson(await patch(tokens[0] as string, { email: ' Alicia@Example.ORG ', currentPassword: PASSWORD }), 200, {
        user: { ...user, email: 'alicia@example.org' },
      });
      await logIn({ email: 'alicia@example.org', password: PASSWORD });
      await expectError(await api().send('POST', '/auth/login', alice), 401, 'Invalid email or password');
      await api().signUp();
    });

    it('answers 400 with an issue at currentPassword when a new e-mail comes without it, and 403 when it is wrong', async () => {
      const { user, tokens } = await aliceWithTokens(0);
      await expectValidationFailure(await patch(tokens[0] as string, { email: 'new@example.com' }), ['currentPassword']);
      await expectValidationFailure(await patch(tokens[0] as string, { email: 'nope', name: '' }), ['email', 'name', 'currentPassword']);
      await expectError(await patch(tokens[0] as string, { email: 'new@example.com', currentPassword: 'wrong one' }), 403, 'Current password is incorrect');
      await expectJson(await api().me(tokens[0] as string), 200, { user });
    });

    it('answers 409 Email already in use for an e-mail another account has, changing nothing', async () => {
      const { user, tokens } = await aliceWithTokens(0);
      await api().signUp(bob);
      await expectError(await patch(tokens[0] as string, { name: 'Mallory', email: 'BOB@example.com', currentPassword: PASSWORD }), 409, 'Email already in use');
      await expectJson(await api().me(tokens[0] as string), 200, { user });
    });

    it('answers 400 saying what to send for a body that names neither name nor email, changing nothing', async () => {
      const { user, tokens } = await aliceWithTokens(0);
      const namesNeither = { error: 'Validation failed', issues: [{ path: '', message: 'must include name or email' }] };
      for (const body of [{}, { password: 'x' }, { currentPassword: PASSWORD }]) {
        await expectJson(await patch(tokens[0] as string, body), 400, namesNeither);
      }
      await expectJson(await api().me(tokens[0] as string), 200, { user });
    });

    it('ignores unknown fields and id, passwordHash, createdAt beside a name', async () => {
      const { user, tokens } = await aliceWithTokens(0);
      await expectJson(await patch(tokens[0] as string, { name: user.name, id: 'x', passwordHash: 'fake-hash:owned', createdAt: 1, role: 'admin' }), 200, { user });
      await expectError(await api().send('POST', '/auth/login', { email: alice.email, password: 'owned' }), 401, 'Invalid email or password');
    });

    it('answers 401 before reading the body', async () => {
      await expectError(await api().send('PATCH', '/me', { name: '' }), 401, 'Missing authorization header');
      await expectError(await api().request('/me', { method: 'PATCH', headers: { ...auth('x'), 'content-type': 'text/plain' }, body: 'x' }), 401, 'Invalid token');
    });
  });

  describe('DELETE /me', () => {
    const remove = (token: string, body: unknown) => api().send('DELETE', '/me', body, auth(token));

    it('answers 204; the account, every session and every post of it are gone, and the e-mail can sign up again', async () => {
      const { user, tokens } = await aliceWithTokens(1);
      const own = await api().createPost({ authorId: user.id, published: true });
      const draft = await api().createPost({ authorId: user.id });
      const kept = await api().createPost({ authorId: 'someone-else', published: true });
      const res = await remove(tokens[0] as string, { currentPassword: PASSWORD });
      await expectNoContent(res);
      expect(res.headers.get('cache-control')).toBe('no-store');
      for (const token of tokens) {
        const refused = await api().me(token);
        expect(refused.headers.get('www-authenticate')).toBe(REFUSED_TOKEN_CHALLENGE);
        await expectError(refused, 401, 'User no longer exists');
      }
      for (const post of [own, draft]) await expectError(await api().request(`/posts/${post.id}`), 404, 'Post not found');
      await expectJson(await api().request(`/posts/${kept.id}`), 200, { post: kept });
      await expectError(await api().send('POST', '/auth/login', alice), 401, 'Invalid email or password');
      expect((await api().signUp()).user.id).not.toBe(user.id);
    });

    it('answers 403 for a wrong current password and 400 without one, deleting nothing', async () => {
      const { user, tokens } = await aliceWithTokens(0);
      const post = await api().createPost({ authorId: user.id });
      await expectError(await remove(tokens[0] as string, { currentPassword: 'wrong one' }), 403, 'Current password is incorrect');
      await expectValidationFailure(await remove(tokens[0] as string, {}), ['currentPassword']);
      await expectJson(await api().me(tokens[0] as string), 200, { user });
      await expectJson(await api().request(`/posts/${post.id}`), 200, { post });
    });

    it('answers a request without a body 400 with an issue at currentPassword, as it answers {}; a body of another type is still 415', async () => {
      const { user, tokens } = await aliceWithTokens(0);
      const required = { error: 'Validation failed', issues: [{ path: 'currentPassword', message: 'is required' }] };
      await expectJson(await api().request('/me', { method: 'DELETE', headers: auth(tokens[0] as string) }), 400, required);
      await expectJson(await remove(tokens[0] as string, {}), 400, required);
      const typed = { method: 'DELETE', headers: { ...auth(tokens[0] as string), 'content-type': 'text/plain' }, body: 'x' };
      await expectError(await api().request('/me', typed), 415, 'Content-Type must be application/json');
      await expectJson(await api().me(tokens[0] as string), 200, { user });
    });

    it('answers 401 before reading the body', async () => {
      await expectError(await api().send('DELETE', '/me', { currentPassword: PASSWORD }), 401, 'Missing authorization header');
      await expectError(await api().send('DELETE', '/me', '[', auth('x')), 401, 'Invalid token');
    });

    local.describe('when the store fails midway', () => {
      it.each([
        ['deleting the posts', 'posts.deleteByAuthor'],
        ['deleting the account', 'users.delete'],
      ] as const)('at %s: answers 503, leaves the account and its tokens, and the same request then finishes', async (_, method) => {
        const { user, tokens } = await aliceWithTokens(0);
        const post = await api().createPost({ authorId: user.id });
        api().faults.fail(method, new DomainError('StoreUnavailable'));
        await expectError(await remove(tokens[0] as string, { currentPassword: PASSWORD }), 503, 'Service unavailable');
        api().faults.clear();
        await expectJson(await api().me(tokens[0] as string), 200, { user });
        await expectNoContent(await remove(tokens[0] as string, { currentPassword: PASSWORD }));
        await expectError(await api().me(tokens[0] as string), 401, 'User no longer exists');
        await expectError(await api().request(`/posts/${post.id}`), 404, 'Post not found');
      });
    });
  });

  describe('every 401 carries WWW-Authenticate', () => {
    it('Bearer without an error code when no token was sent, with error="invalid_token" when one was refused', async () => {
      const { user, tokens } = await aliceWithTokens(0);
      const gone = await api().signUp(bob);
      await expectNoContent(await api().send('DELETE', '/me', { currentPassword: PASSWORD }, auth(gone.token)));
      const ended = await logIn();
      await logOut(ended);
      const cases: [Promise<Response>, string][] = [
        [api().request('/me'), NO_TOKEN_CHALLENGE],
        [api().request('/me', { headers: { authorization: 'Basic YTpi' } }), NO_TOKEN_CHALLENGE],
        [api().send('POST', '/auth/login', { email: alice.email, password: 'wrong password' }), NO_TOKEN_CHALLENGE],
        [api().request('/me/sessions'), NO_TOKEN_CHALLENGE],
        [api().request('/me', { headers: auth('garbage') }), REFUSED_TOKEN_CHALLENGE],
        [api().request('/me', { headers: { authorization: 'Bearer ' } }), REFUSED_TOKEN_CHALLENGE],
        [api().me(ended), REFUSED_TOKEN_CHALLENGE],
        [api().me(gone.token), REFUSED_TOKEN_CHALLENGE],
        [api().request('/auth/refresh', { method: 'POST', headers: auth(ended) }), REFUSED_TOKEN_CHALLENGE],
      ];
      for (const [pending, challenge] of cases) {
        const res = await pending;
        expect({ status: res.status, challenge: res.headers.get('www-authenticate') }).toEqual({ status: 401, challenge });
      }
      // Answers that are not 401 carry none.
      const fine = await api().me(tokens[0] as string);
      await expectJson(fine, 200, { user });
      expect(fine.headers.get('www-authenticate')).toBeNull();
      expect((await api().send('POST', '/posts', aPost)).headers.get('www-authenticate')).toBeNull();
    });
  });

  it('answers 405 with Allow on the session paths', async () => {
    const res = await api().request('/me/sessions', { method: 'POST' });
    expect(allowedMethods(res)).toEqual(['GET', 'HEAD']);
    await expectError(res, 405, 'Method not allowed');
  });
}
