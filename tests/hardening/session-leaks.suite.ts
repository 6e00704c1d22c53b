import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { sleep } from '../support/raw-http.js';
import type { InProcessServer, ServedInkwell, ServerTarget } from '../support/start-inkwell.js';
import { sessionIdOf } from '../support/tokens.js';

/** One failed current password more than this is 429: low, so the drive reaches the limit in two guesses. */
export const SESSION_LEAKS_ENV = { LOGIN_MAX_FAILURES_PER_EMAIL: '2' } as const;

// Recognisable values: none of them may come back in an answer or a log line.
const PASSWORD_A = 'Leak-Check-Passw0rd-of-A';
const PASSWORD_B = 'Leak-Check-Passw0rd-of-B';
const NEW_PASSWORD_A = 'Leak-Check-New-Passw0rd-A';
const WRONG_PASSWORD = 'Leak-Check-Wrong-Guess-99';
const SHORT_PASSWORD = 'Lk-Sh7t'; // 7 characters: one under the minimum
const PASSWORDS = [PASSWORD_A, PASSWORD_B, NEW_PASSWORD_A, WRONG_PASSWORD, SHORT_PASSWORD];

/** What a hash looks like: the fake hasher's prefix, or bcrypt's. */
const HASH = /passwordHash|fake-hash:|\$2[aby]\$/i;

/** One request of the drive and everything that came back for it. */
interface Exchange {
  readonly label: string;
  readonly method: string;
  readonly path: string;
  readonly status: number;
  readonly requestId: string;
  /** Every response header, as `name: value` lines. */
  readonly headers: string;
  readonly body: string;
  /** The token the answer itself issues (signup, login, refresh), if any. */
  readonly issued?: string;
}

/**
 * Every 12-character piece of a token's signature (and, with `payload`, of its payload): finding
 * one means part of the token got out. A token's header is the same for every token, so it names none.
 */
function piecesOf(token: string, { payload = false } = {}): string[] {
  const [, body = '', signature = ''] = token.split('.');
  return (payload ? [body, signature] : [signature]).flatMap((part) => Array.from({ length: part.length - 11 }, (_, i) => part.slice(i, i + 12)));
}

/** `token` with its signature's first character changed: refused, and still recognisable. */
const tampered = (token: string) => {
  const at = token.lastIndexOf('.') + 1;
  return `${token.slice(0, at)}${token[at] === 'A' ? 'B' : 'A'}${token.slice(at + 1)}`;
};

/**
 * Drives every session and account endpoint, to success and to each kind of failure, with two
 * sessions of one account and one of another, and searches what came back: no answer (headers
 * included) carries a password, a hash, or a token other than the one it issues, session
 * listings show ids and times only, every answer says `no-store`; and the server's log lines
 * carry no password, hash, token or Authorization value.
 */
export function describeSessionLeaks(target: ServerTarget): void {
  describe(`what the session and account endpoints answer and log (${target.label})`, () => {
    let t: ServedInkwell;
    const exchanges: Exchange[] = [];
    /** Every token the drive got. */
    const tokens = new Set<string>();
    /** Tokens the drive made up from those (sent, refused): mostly a real token's text. */
    const madeUp = new Set<string>();

    const call = async (label: string, method: string, path: string, options: { token?: string; body?: unknown; raw?: string; type?: string } = {}) => {
      const headers: Record<string, string> = {};
      if (options.token !== undefined) headers.authorization = `Bearer ${options.token}`;
      const body = options.raw ?? (options.body === undefined ? undefined : JSON.stringify(options.body));
      if (body !== undefined) headers['content-type'] = options.type ?? 'application/json';
      const res = await fetch(`${t.url}${path}`, { method, headers, body });
      const text = await res.text();
      const issued = res.ok && /^\/auth\/(signup|login|refresh)$/.test(path) ? (JSON.parse(text) as { token: string }).token : undefined;
      if (issued) tokens.add(issued);
      exchanges.push({
        label,
        method,
        path,
        status: res.status,
        requestId: res.headers.get('x-request-id') ?? '',
        headers: [...res.headers].map(([name, value]) => `${name}: ${value}`).join('\n'),
        body: text,
        ...(issued && { issued }),
      });
      return { status: res.status, body: text === '' ? undefined : (JSON.parse(text) as Record<string, unknown>), issued };
    };
    /** `call`, expecting `status`; answers the token it issued, if any. */
    const expectStatus = async (status: number, ...args: Parameters<typeof call>) => {
      const answer = await call(...args);
      expect({ label: args[0], status: answer.status }).toEqual({ label: args[0], status });
      return answer.issued ?? '';
    };

    beforeAll(async () => {
      t = await target.start();
      const a = { email: 'leak-a@example.com', name: 'A', password: PASSWORD_A };
      const b = { email: 'leak-b@example.com', name: 'B', password: PASSWORD_B };

      const a1 = await expectStatus(201, 'signup A', 'POST', '/auth/signup', { body: a });
      const b1 = await expectStatus(201, 'signup B', 'POST', '/auth/signup', { body: b });
      const a2 = await expectStatus(200, 'login A', 'POST', '/auth/login', { body: { email: a.email, password: PASSWORD_A } });
      const a3 = await expectStatus(200, 'login A again', 'POST', '/auth/login', { body: { email: a.email, password: PASSWORD_A } });
      madeUp.add(tampered(a1));

      await expectStatus(200, 'list sessions', 'GET', '/me/sessions', { token: a1 });
      await expectStatus(200, 'list sessions of B', 'GET', '/me/sessions', { token: b1 });
      await expectStatus(401, 'list sessions, no token', 'GET', '/me/sessions');
      await expectStatus(401, 'list sessions, tampered token', 'GET', '/me/sessions', { token: tampered(a1) });
      await expectStatus(200, "the account's state", 'GET', '/me/account', { token: a1 });
      await expectStatus(401, "the account's state, no token", 'GET', '/me/account');
      await expectStatus(401, "the account's state, tampered token", 'GET', '/me/account', { token: tampered(a1) });

      // A second on, so the refresh issues a token of its own, not the very text of the one it was sent.
      const clock = (t as Partial<InProcessServer>).clock;
      if (clock) clock.advance(1_000);
      else await sleep(1_000);
      expect(await expectStatus(200, 'refresh', 'POST', '/auth/refresh', { token: a2 })).not.toBe(a2);
      await expectStatus(401, 'refresh, tampered token', 'POST', '/auth/refresh', { token: tampered(a2) });
      madeUp.add(tampered(a2));
      await expectStatus(401, 'refresh, no token', 'POST', '/auth/refresh');

      await expectStatus(404, "end B's session with A's token", 'DELETE', `/me/sessions/${sessionIdOf(b1)}`, { token: a1 });
      await expectStatus(204, 'end a session', 'DELETE', `/me/sessions/${sessionIdOf(a3)}`, { token: a1 });
      await expectStatus(404, 'end it again', 'DELETE', `/me/sessions/${sessionIdOf(a3)}`, { token: a1 });
      await expectStatus(401, 'its token', 'GET', '/me/sessions', { token: a3 });
      await expectStatus(401, 'end a session, no token', 'DELETE', `/me/sessions/${sessionIdOf(a2)}`);

      const change = { currentPassword: PASSWORD_A, newPassword: NEW_PASSWORD_A };
      await expectStatus(403, 'password, wrong current', 'POST', '/auth/password', { token: a1, body: { ...change, currentPassword: WRONG_PASSWORD } });
      await expectStatus(400, 'password, too short', 'POST', '/auth/password', { token: a1, body: { ...change, newPassword: SHORT_PASSWORD } });
      await expectStatus(415, 'password, text/plain', 'POST', '/auth/password', { token: a1, raw: JSON.stringify(change), type: 'text/plain' });
      await expectStatus(401, 'password, no token', 'POST', '/auth/password', { body: change });
      await expectStatus(200, 'password', 'POST', '/auth/password', { token: a1, body: change });
      await expectStatus(401, 'a session the change ended', 'GET', '/me/sessions', { token: a2 });

      await expectStatus(200, 'rename', 'PATCH', '/me', { token: a1, body: { name: 'A renamed' } });
      await expectStatus(400, 'new e-mail without the password', 'PATCH', '/me', { token: a1, body: { email: 'leak-a2@example.com' } });
      await expectStatus(403, 'new e-mail, wrong password', 'PATCH', '/me', { token: a1, body: { email: 'leak-a2@example.com', currentPassword: WRONG_PASSWORD } });
      await expectStatus(409, "B's e-mail", 'PATCH', '/me', { token: a1, body: { email: b.email, currentPassword: NEW_PASSWORD_A } });
      await expectStatus(200, 'new e-mail', 'PATCH', '/me', { token: a1, body: { email: 'leak-a2@example.com', currentPassword: NEW_PASSWORD_A } });
      await expectStatus(401, 'PATCH /me, no token', 'PATCH', '/me', { body: { name: 'x' } });

      const a4 = await expectStatus(200, 'login A, new password', 'POST', '/auth/login', { body: { email: 'leak-a2@example.com', password: NEW_PASSWORD_A } });
      await expectStatus(400, 'logout, no such scope', 'POST', '/auth/logout', { token: a4, body: { scope: 'everywhere' } });
      await expectStatus(204, 'logout', 'POST', '/auth/logout', { token: a4 });
      await expectStatus(401, 'logout again', 'POST', '/auth/logout', { token: a4 });
      await expectStatus(204, 'logout of the others', 'POST', '/auth/logout', { token: a1, body: { scope: 'others' } });

      await expectStatus(403, 'delete B, wrong password', 'DELETE', '/me', { token: b1, body: { currentPassword: WRONG_PASSWORD } });
      await expectStatus(400, 'delete B, no password', 'DELETE', '/me', { token: b1, body: { password: PASSWORD_B } });
      await expectStatus(204, 'delete B', 'DELETE', '/me', { token: b1, body: { currentPassword: PASSWORD_B } });
      await expectStatus(401, "B's token", 'GET', '/me/sessions', { token: b1 });
      await expectStatus(401, "B's token, the account's state", 'GET', '/me/account', { token: b1 });
      await expectStatus(401, 'delete, no token', 'DELETE', '/me', { body: { currentPassword: PASSWORD_A } });

      await expectStatus(403, 'delete A, wrong password', 'DELETE', '/me', { token: a1, body: { currentPassword: WRONG_PASSWORD } });
      await expectStatus(403, 'password, wrong again', 'POST', '/auth/password', { token: a1, body: { currentPassword: WRONG_PASSWORD, newPassword: PASSWORD_A } });
      await expectStatus(429, 'password, past the limit', 'POST', '/auth/password', { token: a1, body: { currentPassword: NEW_PASSWORD_A, newPassword: PASSWORD_A } });
    }, 60_000);
    afterAll(async () => {
      await t?.close();
    });

    it('reached every endpoint with a success and with a refusal, and got six distinct tokens', () => {
      const outcomes = new Map<string, Set<string>>();
      for (const { method, path, status } of exchanges) {
        const endpoint = `${method} ${path.replace(/^\/me\/sessions\/.+$/, '/me/sessions/{id}')}`;
        outcomes.set(endpoint, (outcomes.get(endpoint) ?? new Set()).add(status < 300 ? 'success' : 'refusal'));
      }
      for (const endpoint of ['POST /auth/logout', 'POST /auth/refresh', 'POST /auth/password', 'GET /me/account', 'GET /me/sessions', 'DELETE /me/sessions/{id}', 'PATCH /me', 'DELETE /me']) {
        expect({ endpoint, outcomes: [...(outcomes.get(endpoint) ?? [])].sort() }).toEqual({ endpoint, outcomes: ['refusal', 'success'] });
      }
      expect(tokens.size).toBe(6);
    });

    it('answers no password, no hash and no token but the one an answer issues, in bodies and headers', () => {
      for (const exchange of exchanges) {
        const seen = `${exchange.headers}\n\n${exchange.body}`;
        const where = `${exchange.label} (${exchange.status})`;
        for (const password of PASSWORDS) expect(seen, where).not.toContain(password);
        expect(seen, where).not.toMatch(HASH);
        for (const token of tokens) {
          if (token === exchange.issued) continue;
          // A refresh issues another token of the same session, with much of its payload: a signature names one.
          expect(seen, where).not.toContain(token);
          for (const piece of piecesOf(token)) expect(seen, where).not.toContain(piece);
        }
        for (const token of madeUp) expect(seen, where).not.toContain(token);
        expect(exchange.headers, where).toMatch(/^cache-control: no-store$/m);
      }
    });

    it('lists sessions as ids and times only', () => {
      const listings = exchanges.filter(({ method, path, status }) => method === 'GET' && path === '/me/sessions' && status === 200);
      expect(listings).toHaveLength(2);
      for (const { body } of listings) {
        const { sessions } = JSON.parse(body) as { sessions: Record<string, unknown>[] };
        expect(sessions.length).toBeGreaterThan(0);
        for (const session of sessions) {
          expect(session).toStrictEqual({ id: expect.any(String), createdAt: expect.any(Number), expiresAt: expect.any(Number), current: expect.any(Boolean) });
          // Not a token, nor any part of one: no dots, and no segment of any token issued.
          expect(session.id).toMatch(/^[A-Za-z0-9_-]+$/);
          for (const token of tokens) expect(token.split('.')).not.toContain(session.id);
        }
      }
    });

    it('shows every user object as exactly { id, email, name }, and the account\'s state as its six fields', () => {
      let users = 0;
      for (const { label, status, body } of exchanges) {
        if (status >= 300 || body === '') continue;
        const parsed = JSON.parse(body) as { user?: object; account?: object };
        if (parsed.user) {
          expect({ label, keys: Object.keys(parsed.user).sort() }).toEqual({ label, keys: ['email', 'id', 'name'] });
          users++;
        }
        if (parsed.account) {
          expect({ label, keys: Object.keys(parsed.account).sort() }).toEqual({ label, keys: ['createdAt', 'email', 'emailVerified', 'id', 'name', 'updatedAt'] });
        }
      }
      expect(users).toBeGreaterThanOrEqual(8);
      expect(exchanges.filter(({ path, status }) => path === '/me/account' && status === 200)).toHaveLength(1);
    });

    it('logs one line per request, and no password, hash, token or Authorization value', async () => {
      const last = exchanges.at(-1)?.requestId ?? '';
      // A server process writes its lines in batches.
      await vi.waitFor(() => expect(t.log.lines.some((line) => line.includes(`"requestId":"${last}"`))).toBe(true), { timeout: 5_000 });
      const requests = t.log.records().filter((record) => record.msg === 'request');
      const ours = new Map(exchanges.map((exchange) => [exchange.requestId, exchange]));
      expect(
        requests.filter((record) => ours.has(String(record.requestId))).map(({ requestId, method, status }) => ({ requestId, method, status })),
      ).toEqual(exchanges.map(({ requestId, method, status }) => ({ requestId, method, status })));

      const everything = t.log.lines.join('\n');
      for (const password of PASSWORDS) expect(everything).not.toContain(password);
      for (const token of [...tokens, ...madeUp]) {
        for (const piece of [token, ...piecesOf(token, { payload: true })]) expect(everything).not.toContain(piece);
      }
      expect(everything).not.toMatch(HASH);
      expect(everything).not.toMatch(/Bearer|authorization/i);
    });
  });
}
