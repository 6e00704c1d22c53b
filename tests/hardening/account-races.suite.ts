import { createBcryptPasswordHasher, type Store } from '@inkwell/app';
import type { PasswordHasher } from '@inkwell/domain';
import { holdNextCall } from '@inkwell/domain/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PASSWORD, SEVEN_DAYS_MS } from '../support/fixtures.js';
import { rawConnection } from '../support/raw-http.js';
import { startInkwell, type InProcessServer } from '../support/start-inkwell.js';
import type { StoreFactory } from '../support/stores.js';
import { issueToken, issueTokenWithoutSession } from '../support/tokens.js';

/** How many times each race runs: every one must be lost 0 times. */
const TRIES = 50;

/**
 * The work factor of the password races' bcrypt, on the app's own pool of worker threads: a cost
 * that keeps 50 tries of each within seconds while every hash and check still takes milliseconds
 * off the event loop, the window the races need: writes that did not re-check what they verified
 * lose most of these tries at this cost too. At the production cost of 12 the two races take over
 * a minute on two busy cores.
 */
const RACE_BCRYPT_COST = 8;
const P2 = 'the second passphrase';
const P3 = 'the third passphrase';
const auth = (token: string) => ({ authorization: `Bearer ${token}` });

/** What each race's tries came to, by outcome, printed by the test files for the report. */
export const outcomes: Record<string, Record<string, number>> = {};

/** A hasher that calls `onHash` as each hash starts (the last step before a password change writes) and otherwise is `inner`. */
function watchedHasher(inner: PasswordHasher, onHash: () => void): PasswordHasher {
  return {
    dummyHash: inner.dummyHash,
    verify: (password, hash) => inner.verify(password, hash),
    hash: (password) => (onHash(), inner.hash(password)),
  };
}

/**
 * A security review's reproductions against real servers on sockets, each race tried `TRIES`
 * times and lost none: a login with a replaced password that keeps its session, two password
 * changes in flight that both apply, a post whose slow body outlives its account, refreshes of a
 * token without sid that multiply sessions or outlive a logout everywhere, and a returned attempt
 * that frees room in the next window. Each try is meant to hit its race: a login is sent just as the
 * password change it races starts hashing, a body is finished only once the deletion answered,
 * refreshes are sent before and after the logout. The password races run on the app's bcrypt
 * pool (`RACE_BCRYPT_COST`), whose time off the event loop is what opens them; the others on the
 * fake hasher, their window being a slow body, a database round trip or a held check.
 */
export function describeAccountRaceReproductions(factory: StoreFactory): void {
  describe(`account races against real servers, ${TRIES} tries each (${factory.label} store)`, () => {
    const bcrypt = createBcryptPasswordHasher({ threads: 2, queueMax: 64, cost: RACE_BCRYPT_COST });
    const hashStarted = new Set<() => void>();
    // Two servers on one store, as two processes of one service: one hashing with bcrypt, one not.
    let store: Store;
    let slow: InProcessServer;
    let fast: InProcessServer;
    let passwordHash = '';
    beforeAll(async () => {
      [store, passwordHash] = await Promise.all([factory.open(), bcrypt.hash(PASSWORD)]);
      const hasher = watchedHasher(bcrypt, () => {
        for (const wake of hashStarted) wake();
        hashStarted.clear();
      });
      slow = await startInkwell({ in: 'process', store, hasher });
      // Owned posts for the post race; a low per-address limit for the window race.
      fast = await startInkwell({ in: 'process', store, env: { POSTS_ACCESS: 'owner', LOGIN_MAX_FAILURES_PER_ADDRESS: '3' } });
    }, 60_000);
    afterAll(async () => {
      await Promise.all([slow?.close(), fast?.close()]);
      await bcrypt.close();
    });

    /** An account stored directly (no signup's bcrypt), with `sessions` sessions and a token of each. */
    async function account(server: InProcessServer, email: string, hash: string, sessions = 2) {
      const now = server.clock.now();
      const times = { createdAt: now, expiresAt: now + SEVEN_DAYS_MS };
      const { user, session } = await store.users.insert({ email, name: 'Racer', passwordHash: hash, emailVerified: false, createdAt: now, updatedAt: now }, times);
      const ids = [session.id];
      for (let i = 1; i < sessions; i++) ids.push(((await store.users.startSession(user.id, times, 20, now)) as { id: string }).id);
      const tokens = await Promise.all(ids.map((sessionId) => issueToken(user.id, server.clock, { sessionId })));
      return { user, tokens };
    }
    const works = async (server: InProcessServer, token: string) => (await server.send('GET', '/me', undefined, auth(token))).status === 200;
    const count = (race: string, outcome: string) => {
      const counts = (outcomes[`${race} (${factory.label})`] ??= {});
      counts[outcome] = (counts[outcome] ?? 0) + 1;
    };
    /** Every try of `race` came out as the rules say: no outcome marked LOST. */
    const expectNoneLost = (race: string) => {
      const counts = outcomes[`${race} (${factory.label})`] ?? {};
      expect(Object.keys(counts).filter((outcome) => outcome.startsWith('LOST'))).toEqual([]);
      expect(Object.values(counts).reduce((sum, n) => sum + n, 0)).toBe(TRIES);
    };

    it('login × password change: a login sent as the change hashes its new password never keeps a session', { timeout: 180_000 }, async () => {
      for (let i = 0; i < TRIES; i++) {
        const email = `login-${i}@example.com`;
        const { tokens } = await account(slow, email, passwordHash, 1);
        const hashing = new Promise<void>((resolve) => hashStarted.add(resolve));
        const changing = slow.send('POST', '/auth/password', { currentPassword: PASSWORD, newPassword: P2 }, auth(tokens[0] as string));
        await hashing;
        const login = await slow.send('POST', '/auth/login', { email, password: PASSWORD });
        expect((await changing).status).toBe(200);
        if (login.status === 401) {
          expect(await login.json()).toEqual({ error: 'Invalid email or password' });
          count('login × password change', 'login refused: 401 Invalid email or password');
        } else {
          expect(login.status).toBe(200);
          const { token } = (await login.json()) as { token: string };
          count('login × password change', (await works(slow, token)) ? 'LOST: the login kept its session' : "login's session ended by the change");
        }
      }
      expectNoneLost('login × password change');
    });

    it('password change × password change: of two changes in flight from two sessions exactly one applies', { timeout: 180_000 }, async () => {
      for (let i = 0; i < TRIES; i++) {
        const { tokens } = await account(slow, `twice-${i}@example.com`, passwordHash);
        const [laptop, phone] = tokens as [string, string];
        const answers = await Promise.all([
          slow.send('POST', '/auth/password', { currentPassword: PASSWORD, newPassword: P2 }, auth(laptop)),
          slow.send('POST', '/auth/password', { currentPassword: PASSWORD, newPassword: P3 }, auth(phone)),
        ]);
        const statuses = answers.map((res) => res.status);
        if (statuses.every((status) => status === 200)) {
          count('password change × password change', 'LOST: both applied');
          continue;
        }
        expect([...statuses].sort()).toEqual([200, 401]);
        const loser = answers.find((res) => res.status === 401) as Response;
        expect(await loser.json()).toEqual({ error: 'Invalid token' });
        expect([await works(slow, laptop), await works(slow, phone)]).toEqual(statuses.map((status) => status === 200));
        count('password change × password change', 'one applied, the other 401 Invalid token');
      }
      expectNoneLost('password change × password change');
    });

    it('POST /posts × DELETE /me: a body finished after its account was deleted stores nothing', { timeout: 120_000 }, async () => {
      for (let i = 0; i < TRIES; i++) {
        const { user, tokens } = await account(fast, `posts-${i}@example.com`, `fake-hash:${PASSWORD}`);
        const [laptop, phone] = tokens as [string, string];
        const body = JSON.stringify({ title: 'Late', body: 'Sent slowly', published: true });
        const connection = await rawConnection(fast.port);
        connection.write(
          `POST /posts HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${phone}\r\nContent-Type: application/json\r\n` +
            `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body.slice(0, 10)}`,
        );
        expect((await fast.send('DELETE', '/me', { currentPassword: PASSWORD }, auth(laptop))).status).toBe(204);
        connection.write(body.slice(10));
        const answer = await connection.response();
        connection.socket.destroy();
        const stored = await store.posts.countByAuthor(user.id);
        if (answer.status === 201 || stored > 0) {
          count('POST /posts × DELETE /me', 'LOST: a post of the deleted account');
          continue;
        }
        expect([answer.status, JSON.parse(answer.body)]).toEqual([401, { error: 'User no longer exists' }]);
        count('POST /posts × DELETE /me', 'post refused: 401 User no longer exists');
      }
      expectNoneLost('POST /posts × DELETE /me');
    });

    it('refresh × logout everywhere: no token refreshed from a token without sid works after the logout answered', { timeout: 120_000 }, async () => {
      for (let i = 0; i < TRIES; i++) {
        const { user, tokens } = await account(fast, `refresh-${i}@example.com`, `fake-hash:${PASSWORD}`, 1);
        const legacy = await issueTokenWithoutSession(user.id, fast.clock, fast.clock.now() - 1000);
        // Refreshes sent before and after the logout, all in flight with it.
        const refresh = () => fast.send('POST', '/auth/refresh', undefined, auth(legacy));
        const before = Array.from({ length: 5 }, refresh);
        const logout = fast.send('POST', '/auth/logout', { scope: 'all' }, auth(tokens[0] as string));
        const after = Array.from({ length: 5 }, refresh);
        expect((await logout).status).toBe(204);
        const answers = await Promise.all([...before, ...after]);
        const refreshed = await Promise.all(answers.filter((res) => res.status === 200).map(async (res) => ((await res.json()) as { token: string }).token));
        const working = await Promise.all([legacy, ...refreshed].map((token) => works(fast, token)));
        if (working.some(Boolean)) count('refresh × logout everywhere', 'LOST: a token works after the logout');
        else if (refreshed.length > 1) count('refresh × logout everywhere', 'LOST: one token refreshed into several sessions');
        else count('refresh × logout everywhere', `${refreshed.length} refreshed, none works after the logout`);
      }
      expectNoneLost('refresh × logout everywhere');
    });

    it('refresh of a token without sid, 20 times: one session starts, and every real session outlives it', async () => {
      // 19 sessions and the one the exchange starts make the bound of 20: none has to end.
      const { user, tokens } = await account(fast, 'crowd@example.com', `fake-hash:${PASSWORD}`, 19);
      const legacy = await issueTokenWithoutSession(user.id, fast.clock, fast.clock.now() - 1000);
      const refreshes: number[] = [];
      for (let i = 0; i < 20; i++) refreshes.push((await fast.send('POST', '/auth/refresh', undefined, auth(legacy))).status);
      expect(refreshes).toEqual([200, ...Array<number>(19).fill(401)]);
      const logouts = await Promise.all(tokens.map((token) => fast.send('POST', '/auth/logout', undefined, auth(token))));
      expect(logouts.map((res) => res.status)).toEqual(Array<number>(19).fill(204));
    });

    it('a correct login whose window ended while it ran gives nothing back to the next window', { timeout: 120_000 }, async () => {
      await account(fast, 'window@example.com', `fake-hash:${PASSWORD}`, 1);
      const windowMs = 15 * 60 * 1000;
      for (let i = 0; i < TRIES; i++) {
        fast.clock.advance(windowMs);
        const held = holdNextCall(fast.hasher, 'verify');
        const login = fast.send('POST', '/auth/login', { email: 'window@example.com', password: PASSWORD });
        await held.reached;
        fast.clock.advance(windowMs);
        for (let j = 0; j < 3; j++) expect((await fast.send('POST', '/auth/login', { email: `guess-${i}-${j}@example.com`, password: 'wrong' })).status).toBe(401);
        held.release();
        expect((await login).status).toBe(200);
        const fourth = await fast.send('POST', '/auth/login', { email: `guess-${i}-3@example.com`, password: 'wrong' });
        count('login limits across windows', fourth.status === 429 ? 'fourth failure refused: 429' : 'LOST: a fourth failure let through');
      }
      expectNoneLost('login limits across windows');
    });
  });
}
