// Sessions end for the whole service: once an answer says a session ended, no process accepts its
// tokens on the very next request (no cache, no delay), and concurrent logins and logouts on any
// mix of processes lose no session and keep none that ended. Real processes on one MongoDB
// database, real bcrypt, real tokens.
import { decodeJwt } from 'jose';
import { expect, it } from 'vitest';
import { PASSWORD } from '../support/fixtures.js';
import { call, describeOneService, type Answer } from '../support/one-service.js';

const sidOf = (token: string) => decodeJwt(token).sid as string;
const auth = (token: string) => ({ authorization: `Bearer ${token}` });

// Every login attempt is counted against its e-mail before the password is checked (so parallel
// guesses cannot outrun the count): 20 concurrent right passwords for one account would meet the
// default limit of 10 in flight. The limit is not what these scenarios are about.
const ROOM_FOR_CONCURRENT_LOGINS = { LOGIN_MAX_FAILURES_PER_EMAIL: '50' };

describeOneService('sessions', ROOM_FOR_CONCURRENT_LOGINS, (service) => {
  let accounts = 0;
  /** A request to process `i` mod 2 (a cluster: the next worker). */
  const on = (i: number, method: string, path: string, body?: unknown, headers: Record<string, string> = {}) =>
    call(service().urlFor(i), method, path, body, headers);
  const me = (i: number, token: string) => on(i, 'GET', '/me', undefined, auth(token));
  const tokenOf = (answer: Answer) => {
    expect([200, 201]).toContain(answer.status);
    return (answer.body as { token: string }).token;
  };
  /** An account signed up through process 0, with one more session from a login through process 1. */
  async function account(email: string): Promise<{ first: string; second: string }> {
    const first = tokenOf(await on(0, 'POST', '/auth/signup', { email, name: 'Sam', password: PASSWORD }));
    const second = tokenOf(await on(1, 'POST', '/auth/login', { email, password: PASSWORD }));
    return { first, second };
  }
  /** Both tokens work on both processes (each process has seen them: nothing is refused for being new to it). */
  async function expectWorkingEverywhere(...tokens: string[]): Promise<void> {
    for (const token of tokens) for (const i of [0, 1]) expect((await me(i, token)).status).toBe(200);
  }

  const endings: [string, (tokens: { first: string; second: string }) => Promise<Answer>, number][] = [
    ['a logout', ({ first }) => on(0, 'POST', '/auth/logout', undefined, auth(first)), 204],
    ['DELETE /me/sessions/{id} from another session', ({ first, second }) => on(0, 'DELETE', `/me/sessions/${sidOf(first)}`, undefined, auth(second)), 204],
    ['a password change from another session', ({ second }) => on(0, 'POST', '/auth/password', { currentPassword: PASSWORD, newPassword: 'another passphrase' }, auth(second)), 200],
    ['a logout of the others from another session', ({ second }) => on(0, 'POST', '/auth/logout', { scope: 'others' }, auth(second)), 204],
  ];

  it.each(endings)('refuses an ended session on the other process on the very next request, after %s', async (_, end, status) => {
    const tokens = await account(`ending-${++accounts}@example.com`);
    await expectWorkingEverywhere(tokens.first, tokens.second);
    expect((await end(tokens)).status).toBe(status);
    const next = await me(1, tokens.first);
    expect({ status: next.status, body: next.body, challenge: next.headers['www-authenticate'] }).toEqual({
      status: 401,
      body: { error: 'Invalid token' },
      challenge: 'Bearer realm="inkwell", error="invalid_token"',
    });
    expect((await me(0, tokens.first)).status).toBe(401);
    await expectWorkingEverywhere(tokens.second);
  }, 60_000);

  it('refuses every token of a deleted account on the other process on the very next request', async () => {
    const tokens = await account('deleted@example.com');
    await expectWorkingEverywhere(tokens.first, tokens.second);
    expect((await on(0, 'DELETE', '/me', { currentPassword: PASSWORD }, auth(tokens.first))).status).toBe(204);
    for (const token of [tokens.first, tokens.second]) {
      expect(await me(1, token)).toMatchObject({ status: 401, body: { error: 'User no longer exists' } });
    }
    expect((await on(1, 'POST', '/auth/signup', { email: 'deleted@example.com', name: 'Again', password: PASSWORD })).status).toBe(201);
  }, 60_000);

  it('keeps all 20 sessions of 20 concurrent logins of one account spread over the processes (the signup one ends at the bound)', async () => {
    const signup = tokenOf(await on(0, 'POST', '/auth/signup', { email: 'crowd@example.com', name: 'Crowd', password: PASSWORD }));
    const logins = await Promise.all(
      Array.from({ length: 20 }, (_, i) => on(i, 'POST', '/auth/login', { email: 'crowd@example.com', password: PASSWORD })),
    );
    const tokens = logins.map(tokenOf);
    const listed = await on(0, 'GET', '/me/sessions', undefined, auth(tokens[0] as string));
    const ids = (listed.body as { sessions: { id: string }[] }).sessions.map((session) => session.id);
    expect(ids.sort()).toEqual(tokens.map(sidOf).sort());
    expect((await me(1, signup)).status).toBe(401);
    for (const [i, token] of tokens.entries()) expect((await me(i, token)).status).toBe(200);
  }, 60_000);

  it('leaves exactly the sessions the answers promise when logins race a logout of the others', async () => {
    const caller = tokenOf(await on(0, 'POST', '/auth/signup', { email: 'race@example.com', name: 'Race', password: PASSWORD }));
    const login = (i: number) => on(i, 'POST', '/auth/login', { email: 'race@example.com', password: PASSWORD }).then(tokenOf);
    const before = await Promise.all([0, 1, 2, 3, 4].map(login));
    const racingLogins = Promise.all([0, 1, 2, 3, 4, 5, 6, 7, 8, 9].map(login));
    const logout = on(1, 'POST', '/auth/logout', { scope: 'others' }, auth(caller));
    const [racing, loggedOut] = await Promise.all([racingLogins, logout]);
    expect(loggedOut.status).toBe(204);
    const after = await Promise.all([0, 1, 2].map(login));

    const works = async (token: string, i: number) => (await me(i, token)).status === 200;
    // Every session that existed before the logout ended; every one started after it lives.
    for (const [i, token] of before.entries()) expect(await works(token, i)).toBe(false);
    for (const [i, token] of [caller, ...after].entries()) expect(await works(token, i)).toBe(true);
    // The racing ones went either way, and the list is exactly the sessions whose tokens work.
    const racingLive = [];
    for (const [i, token] of racing.entries()) if (await works(token, i)) racingLive.push(token);
    const listed = await on(0, 'GET', '/me/sessions', undefined, auth(caller));
    const ids = (listed.body as { sessions: { id: string }[] }).sessions.map((session) => session.id);
    expect(ids.sort()).toEqual([caller, ...racingLive, ...after].map(sidOf).sort());
  }, 60_000);

  it('refreshes a session through one process and the other sees the new expiry and both tokens', async () => {
    const { first } = await account('refresh@example.com');
    const refreshed = await on(0, 'POST', '/auth/refresh', undefined, auth(first));
    const token = tokenOf(refreshed);
    expect(sidOf(token)).toBe(sidOf(first));
    await expectWorkingEverywhere(first, token);
    const listed = await on(1, 'GET', '/me/sessions', undefined, auth(token));
    const current = (listed.body as { sessions: { current: boolean; expiresAt: number }[] }).sessions.find((session) => session.current);
    expect(Math.floor((current?.expiresAt ?? 0) / 1000)).toBe(decodeJwt(token).exp);
  }, 60_000);
});
