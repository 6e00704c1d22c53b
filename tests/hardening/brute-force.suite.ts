import { afterEach, describe, expect, it } from 'vitest';
import { startInkwell, type InProcessServer } from '../support/start-inkwell.js';
import type { StoreFactory } from '../support/stores.js';
import { PASSWORD } from '../support/fixtures.js';

const TOO_MANY = { error: 'Too many attempts, try again later' };
const INVALID = { error: 'Invalid email or password' };

/**
 * The brute-force rules through HTTP on a real socket, with a fake
 * hasher and a manual clock so a hundred attempts take well under a second.
 */
export function describeBruteForce(factory: StoreFactory): void {
  describe(`brute-force limits over a real socket (${factory.label} store)`, () => {
    let t: InProcessServer | undefined;
    afterEach(async () => {
      await t?.close();
      t = undefined;
    });

    const start = async (env: Record<string, string> = {}) => {
      t = await startInkwell({ in: 'process', store: await factory.open(), env });
      for (const email of ['alice@example.com', 'bob@example.com']) {
        expect((await t.send('POST', '/auth/signup', { email, name: 'N', password: PASSWORD })).status).toBe(201);
      }
      return t;
    };
    const logIn = (server: InProcessServer, email: string, password: string, headers: Record<string, string> = {}) =>
      server.send('POST', '/auth/login', { email, password }, headers);
    const answer = async (res: Response) => ({
      status: res.status,
      retryAfter: res.headers.get('retry-after'),
      body: (await res.json()) as unknown,
    });

    it('answers the 11th failure on one e-mail 429 with Retry-After and the exact body (defaults: 10 per 15 minutes)', async () => {
      const server = await start();
      for (let i = 0; i < 10; i++) {
        expect(await answer(await logIn(server, 'alice@example.com', `wrong-${i}`))).toStrictEqual({ status: 401, retryAfter: null, body: INVALID });
      }
      const refused = await logIn(server, 'alice@example.com', 'wrong-10');
      expect(refused.headers.get('content-type')).toMatch(/^application\/json/);
      expect(await answer(refused)).toStrictEqual({ status: 429, retryAfter: '900', body: TOO_MANY });
      // The right password is refused too while the e-mail is blocked, and costs no hash.
      const verifies = server.hasher.calls.verify;
      expect(await answer(await logIn(server, 'ALICE@example.com ', PASSWORD))).toStrictEqual({ status: 429, retryAfter: '900', body: TOO_MANY });
      expect(server.hasher.calls.verify).toBe(verifies);
    });

    it('never blocks a correct login to another account from the same address below the address limit', async () => {
      const server = await start();
      for (let i = 0; i < 15; i++) await logIn(server, 'bob@example.com', `wrong-${i}`);
      expect((await logIn(server, 'bob@example.com', PASSWORD)).status).toBe(429);
      const alice = await logIn(server, 'alice@example.com', PASSWORD);
      expect(alice.status).toBe(200);
    });

    it('lets the e-mail in again once the window has passed (manual clock)', async () => {
      const server = await start();
      for (let i = 0; i < 10; i++) await logIn(server, 'alice@example.com', 'wrong');
      server.clock.advance(14 * 60_000);
      expect(await answer(await logIn(server, 'alice@example.com', PASSWORD))).toStrictEqual({ status: 429, retryAfter: '60', body: TOO_MANY });
      server.clock.advance(60_000);
      expect((await logIn(server, 'alice@example.com', PASSWORD)).status).toBe(200);
    });

    it('resets the e-mail count on a correct login', async () => {
      const server = await start();
      for (let round = 0; round < 3; round++) {
        for (let i = 0; i < 9; i++) expect((await logIn(server, 'alice@example.com', 'wrong')).status).toBe(401);
        expect((await logIn(server, 'alice@example.com', PASSWORD)).status).toBe(200);
      }
    });

    it('answers the 101st failure from one address 429, across distinct e-mails (default 100)', async () => {
      const server = await start();
      for (let i = 0; i < 100; i++) expect((await logIn(server, `guess-${i}@example.com`, 'x')).status).toBe(401);
      expect(await answer(await logIn(server, 'guess-100@example.com', 'x'))).toStrictEqual({ status: 429, retryAfter: '900', body: TOO_MANY });
      // At the address limit every login from it waits, the right one too.
      expect((await logIn(server, 'alice@example.com', PASSWORD)).status).toBe(429);
    });

    it('keys the address on the socket, ignoring X-Forwarded-For, unless TRUST_PROXY is on', async () => {
      const server = await start({ LOGIN_MAX_FAILURES_PER_ADDRESS: '5' });
      for (let i = 0; i < 5; i++) await logIn(server, `g${i}@example.com`, 'x', { 'x-forwarded-for': `203.0.113.${i}` });
      expect((await logIn(server, 'alice@example.com', PASSWORD, { 'x-forwarded-for': '198.51.100.7' })).status).toBe(429);
    });

    it('with TRUST_PROXY takes the right-most X-Forwarded-For entry, so a client cannot pick its own address', async () => {
      const server = await start({ LOGIN_MAX_FAILURES_PER_ADDRESS: '5', TRUST_PROXY: 'on' });
      for (let i = 0; i < 5; i++) {
        // The client writes anything on the left; the proxy appends what it saw.
        await logIn(server, `g${i}@example.com`, 'x', { 'x-forwarded-for': `10.0.0.${i}, 203.0.113.9` });
      }
      expect((await logIn(server, 'alice@example.com', PASSWORD, { 'x-forwarded-for': '10.9.9.9, 203.0.113.9' })).status).toBe(429);
      expect((await logIn(server, 'alice@example.com', PASSWORD, { 'x-forwarded-for': '198.51.100.7' })).status).toBe(200);
      // IPv6 clients count by /64: another address in the same /64 is the same client.
      for (let i = 0; i < 5; i++) await logIn(server, `v6-${i}@example.com`, 'x', { 'x-forwarded-for': `2001:db8:1:2::${i + 1}` });
      expect((await logIn(server, 'bob@example.com', PASSWORD, { 'x-forwarded-for': '2001:db8:1:2:ffff::9' })).status).toBe(429);
      expect((await logIn(server, 'bob@example.com', PASSWORD, { 'x-forwarded-for': '2001:db8:1:3::1' })).status).toBe(200);
    });

    it('turns each login limit off with 0', async () => {
      const server = await start({ LOGIN_MAX_FAILURES_PER_EMAIL: '0', LOGIN_MAX_FAILURES_PER_ADDRESS: '0' });
      for (let i = 0; i < 120; i++) expect((await logIn(server, 'alice@example.com', 'wrong')).status).toBe(401);
      expect((await logIn(server, 'alice@example.com', PASSWORD)).status).toBe(200);
    });

    it('answers the 101st signup from one address 429 with Retry-After 3600 (default 100 per hour), then lets it in after the hour', async () => {
      const server = await start(); // two signups already made
      for (let i = 2; i < 100; i++) {
        expect((await server.send('POST', '/auth/signup', { email: `user${i}@example.com`, name: 'U', password: PASSWORD })).status).toBe(201);
      }
      const refused = await server.send('POST', '/auth/signup', { email: 'late@example.com', name: 'L', password: PASSWORD });
      expect(await answer(refused)).toStrictEqual({ status: 429, retryAfter: '3600', body: TOO_MANY });
      expect((await logIn(server, 'late@example.com', PASSWORD)).status).toBe(401); // nothing was stored
      server.clock.advance(3_600_000);
      expect((await server.send('POST', '/auth/signup', { email: 'late@example.com', name: 'L', password: PASSWORD })).status).toBe(201);
    });

    it('takes the signup limit from SIGNUP_MAX_PER_ADDRESS and SIGNUP_WINDOW_SECONDS, and 0 turns it off', async () => {
      let server = await start({ SIGNUP_MAX_PER_ADDRESS: '3', SIGNUP_WINDOW_SECONDS: '60' });
      expect(await answer(await server.send('POST', '/auth/signup', { email: 'c@example.com', name: 'C', password: PASSWORD }))).toMatchObject({ status: 201 });
      expect(await answer(await server.send('POST', '/auth/signup', { email: 'd@example.com', name: 'D', password: PASSWORD }))).toStrictEqual({
        status: 429,
        retryAfter: '60',
        body: TOO_MANY,
      });
      await server.close();
      server = await start({ SIGNUP_MAX_PER_ADDRESS: '0' });
      for (let i = 0; i < 120; i++) {
        expect((await server.send('POST', '/auth/signup', { email: `many${i}@example.com`, name: 'M', password: PASSWORD })).status).toBe(201);
      }
    });
  });
}
