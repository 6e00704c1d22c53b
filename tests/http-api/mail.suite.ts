import { describe, expect, it } from 'vitest';
import { PASSWORD, alice, bob } from '../support/fixtures.js';
import { issueTokenWithoutSession } from '../support/tokens.js';
import { expectError, expectJson, expectValidationFailure, inProcessOnly, type HttpApi, type HttpTarget } from './harness.js';

const NEW_PASSWORD = 'a brand new passphrase';
const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;
const auth = (token: string) => ({ authorization: `Bearer ${token}` });
const signedInShape = { token: expect.any(String), user: expect.any(Object) };
const INVALID_LINK = 'Invalid or expired token';

/** The settings of a server with mail off: production without `MAIL_URL`. */
export const MAIL_OFF = { NODE_ENV: 'production' } as const;

/**
 * Mail through HTTP (docs/api.md, Mail): the password reset, the address's verification, and the
 * notices, as a client and the reader of the mail see them. The mail is read where it arrives:
 * from a sender that records it in process, from the `log:` lines of a server process.
 */
export function describeMailApi(api: () => HttpApi, target: HttpTarget): void {
  const local = inProcessOnly(target);
  // A server process counts a client by its socket's address (127.0.0.1 here); an app in this
  // process is handed requests without one, so only the rules keyed on something else apply.
  const overSockets = target.inProcess ? { it: Object.assign(() => undefined, { each: () => () => undefined }) as unknown as typeof it } : { it };

  const askReset = (email: string, headers: Record<string, string> = {}) => api().send('POST', '/auth/password-reset', { email }, headers);
  const confirm = (token: string, newPassword = NEW_PASSWORD) => api().send('POST', '/auth/password-reset/confirm', { token, newPassword });
  const verify = (token: string) => api().send('POST', '/auth/verify-email', { token });
  const logIn = (password: string, email: string = alice.email) => api().send('POST', '/auth/login', { email, password });

  /**
   * Alice signed up and, a millisecond later, asked for a reset link (a reset asked for in the
   * millisecond the password was set is not sent: it may have come before): the link's token.
   */
  async function aliceWithResetLink() {
    const signedIn = await api().signUp();
    await api().elapse(1);
    await expectJson(await askReset(alice.email), 202, {});
    const { token } = await api().inbox.take('password-reset', alice.email);
    return { ...signedIn, link: token };
  }

  describe('e-mail verification', () => {
    it('sends a link at signup that verifies the address once, without credentials', async () => {
      const { token, user } = await api().signUp();
      const mail = await api().inbox.take('email-verification', alice.email);
      expect(mail.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
      const res = await verify(mail.token);
      expect(res.headers.get('cache-control')).toBe('no-store');
      await expectJson(res, 200, { account: { ...user, emailVerified: true, createdAt: expect.any(Number), updatedAt: expect.any(Number) } });
      await expectJson(await api().me(token), 200, { user });
      await expectError(await verify(mail.token), 400, INVALID_LINK);
    });

    it('uses a link only by POST: following it, or any other method with its token, uses nothing', async () => {
      await api().signUp();
      const verification = await api().inbox.take('email-verification', alice.email);
      await api().elapse(1);
      await expectJson(await askReset(alice.email), 202, {});
      const reset = await api().inbox.take('password-reset', alice.email);
      for (const [path, token] of [
        ['/auth/verify-email', verification.token],
        ['/auth/password-reset/confirm', reset.token],
      ] as const) {
        for (const method of ['GET', 'HEAD', 'PUT', 'PATCH', 'DELETE']) {
          const res = await api().request(`${path}?token=${token}`, { method });
          expect({ path, method, status: res.status }).toStrictEqual({ path, method, status: 405 });
        }
      }
      await expectJson(await verify(verification.token), 200, { account: expect.objectContaining({ emailVerified: true }) });
      await expectJson(await confirm(reset.token), 200, signedInShape);
    });

    it('answers 400 Invalid or expired token for a token that is none, and 400 Validation failed for a body that is no token', async () => {
      await api().signUp();
      const { token } = await api().inbox.take('email-verification', alice.email);
      for (const unknown of ['x', token.slice(1), token.toUpperCase(), `${token}=`]) await expectError(await verify(unknown), 400, INVALID_LINK);
      for (const body of [{}, { token: 42 }, { token: '' }, { token: 'x'.repeat(257) }]) {
        await expectValidationFailure(await api().send('POST', '/auth/verify-email', body), ['token']);
      }
      await verify(token);
    });

    it('POST /me/verify-email sends a new link, and then only the newest works; a verified address is 409', async () => {
      const { token: session } = await api().signUp();
      const first = await api().inbox.take('email-verification', alice.email);
      await api().elapse(1);
      const res = await api().request('/me/verify-email', { method: 'POST', headers: auth(session) });
      expect(res.headers.get('cache-control')).toBe('no-store');
      await expectJson(res, 202, {});
      const second = await api().inbox.take('email-verification', alice.email);
      await expectError(await verify(first.token), 400, INVALID_LINK);
      await expectJson(await verify(second.token), 200, { account: expect.objectContaining({ emailVerified: true }) });
      await expectError(await api().request('/me/verify-email', { method: 'POST', headers: auth(session) }), 409, 'Email already verified');
    });

    it('POST /me/verify-email takes a token by the GET /me rules', async () => {
      await expectError(await api().request('/me/verify-email', { method: 'POST' }), 401, 'Missing authorization header');
      await expectError(await api().request('/me/verify-email', { method: 'POST', headers: auth('not-a-token') }), 401, 'Invalid token');
    });

    it('POST /me/verify-email allows 3 an hour per account, then 429 with Retry-After', async () => {
      const { token } = await api().signUp();
      const ask = () => api().request('/me/verify-email', { method: 'POST', headers: auth(token) });
      for (let i = 0; i < 3; i++) expect((await ask()).status).toBe(202);
      const refused = await ask();
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(3500);
      await expectError(refused, 429, 'Too many attempts, try again later');
    });

    local.it('refuses a link 24 hours after it was asked for', async () => {
      await api().signUp();
      const { token } = await api().inbox.take('email-verification', alice.email);
      await api().elapse(24 * HOUR_MS);
      await expectError(await verify(token), 400, INVALID_LINK);
    });

    it('a new e-mail is unverified: a link goes to it, a notice to the old address, and the old link stops working', async () => {
      const { token: session, user } = await api().signUp();
      const old = await api().inbox.take('email-verification', alice.email);
      const res = await api().send('PATCH', '/me', { email: 'alicia@example.org', currentPassword: PASSWORD }, auth(session));
      await expectJson(res, 200, { user: { ...user, email: 'alicia@example.org' } });
      await api().inbox.take('email-changed', alice.email, 'no link');
      const fresh = await api().inbox.take('email-verification', 'alicia@example.org');
      await expectError(await verify(old.token), 400, INVALID_LINK);
      await expectJson(await verify(fresh.token), 200, { account: expect.objectContaining({ id: user.id, email: 'alicia@example.org', emailVerified: true }) });
    });
  });

  describe('password reset', () => {
    it('answers 202 {} alike for an address with an account and one without, and mails the link only to the account', async () => {
      await api().signUp();
      await api().elapse(1);
      const known = await askReset(alice.email);
      const unknown = await askReset('nobody@example.com');
      expect(known.headers.get('cache-control')).toBe('no-store');
      const headersOf = (res: Response) => [...res.headers.keys()].filter((name) => !['x-request-id', 'date'].includes(name)).sort();
      expect(headersOf(unknown)).toEqual(headersOf(known));
      await expectJson(known, 202, {});
      await expectJson(unknown, 202, {});
      const { token } = await api().inbox.take('password-reset', alice.email);
      expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    });

    local.it('sends nothing to an address no account has', async () => {
      await askReset('nobody@example.com');
      expect(await api().mail?.deliver()).toEqual([expect.objectContaining({ outcome: { status: 'dropped', reason: 'no-account' } })]);
      expect(api().mail?.sender.sent.filter((mail) => mail.kind === 'password-reset')).toEqual([]);
    });

    it('sets the new password with the link: a new session, every other one ended, the address verified, a notice sent', async () => {
      const { token: before, user, link } = await aliceWithResetLink();
      const legacy = await issueTokenWithoutSession(user.id, api().clock, api().clock.now() - 2000);
      await expectJson(await api().me(legacy), 200, { user });
      const res = await confirm(link);
      expect(res.headers.get('cache-control')).toBe('no-store');
      const { token: after } = (await expectJson(res, 200, { token: expect.any(String), user })) as { token: string };
      await expectJson(await api().me(after), 200, { user });
      await expectJson(await api().request('/me/account', { headers: auth(after) }), 200, { account: expect.objectContaining({ emailVerified: true }) });
      for (const ended of [before, legacy]) await expectError(await api().me(ended), 401, 'Invalid token');
      await expectError(await logIn(PASSWORD), 401, 'Invalid email or password');
      await expectJson(await logIn(NEW_PASSWORD), 200, signedInShape);
      await api().inbox.take('password-changed', alice.email, 'no link');
    });

    it('uses a token once, and a body that fails validation uses none', async () => {
      const { link } = await aliceWithResetLink();
      await expectValidationFailure(await confirm(link, 'short'), ['newPassword']);
      await expectValidationFailure(await api().send('POST', '/auth/password-reset/confirm', { token: 7 }), ['token', 'newPassword']);
      await expectJson(await confirm(link), 200, signedInShape);
      await expectError(await confirm(link, 'yet another passphrase'), 400, INVALID_LINK);
      await expectJson(await logIn(NEW_PASSWORD), 200, signedInShape);
    });

    it('refuses a token that is none', async () => {
      const { link } = await aliceWithResetLink();
      for (const unknown of ['x', link.slice(1), link.toUpperCase()]) await expectError(await confirm(unknown), 400, INVALID_LINK);
      await expectJson(await logIn(PASSWORD), 200, signedInShape);
    });

    it('keeps the older link working once a newer one was asked for (a stranger asking ends no link), and using one ends both', async () => {
      const { link: older } = await aliceWithResetLink();
      await api().elapse(1);
      await askReset(alice.email);
      const { token: newer } = await api().inbox.take('password-reset', alice.email);
      await expectJson(await confirm(older), 200, signedInShape);
      await expectError(await confirm(newer, 'yet another passphrase'), 400, INVALID_LINK);
      await expectJson(await logIn(NEW_PASSWORD), 200, signedInShape);
    });

    it('refuses a link after the password changed, and the change sends a notice', async () => {
      const { token, link } = await aliceWithResetLink();
      await api().elapse(1);
      await expectJson(await api().send('POST', '/auth/password', { currentPassword: PASSWORD, newPassword: 'changed meanwhile' }, auth(token)), 200, {
        user: expect.any(Object),
      });
      await api().inbox.take('password-changed', alice.email, 'no link');
      await expectError(await confirm(link), 400, INVALID_LINK);
      await expectJson(await logIn('changed meanwhile'), 200, signedInShape);
    });

    it('refuses a link sent to an address the account left', async () => {
      const { token, link } = await aliceWithResetLink();
      await api().send('PATCH', '/me', { email: 'alicia@example.org', currentPassword: PASSWORD }, auth(token));
      await expectError(await confirm(link), 400, INVALID_LINK);
    });

    local.it('refuses a link 30 minutes after it was asked for', async () => {
      const { link } = await aliceWithResetLink();
      await api().elapse(30 * MINUTE_MS);
      await expectError(await confirm(link), 400, INVALID_LINK);
    });

    overSockets.it('allows 3 requests per e-mail an hour from one client, known or not, then 429 with Retry-After', async () => {
      await api().signUp();
      for (const email of [alice.email, bob.email]) {
        for (let i = 0; i < 3; i++) await expectJson(await askReset(email), 202, {});
        const refused = await askReset(email.toUpperCase());
        expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(3500);
        await expectError(refused, 429, 'Too many attempts, try again later');
      }
    });

    local.it('caps the requests for one e-mail at 10 an hour from every client together, known or not, then 429 with Retry-After', async () => {
      await api().signUp();
      for (const email of [alice.email, bob.email]) {
        for (let i = 0; i < 10; i++) await expectJson(await askReset(email), 202, {});
        const refused = await askReset(email);
        expect(Number(refused.headers.get('retry-after'))).toBe(3600);
        await expectError(refused, 429, 'Too many attempts, try again later');
      }
      await api().elapse(HOUR_MS);
      await expectJson(await askReset(alice.email), 202, {});
    });

    it('validates the e-mail as signup does, trimmed and lower-cased', async () => {
      await api().signUp();
      await api().elapse(1);
      await expectJson(await askReset('  ALICE@Example.com '), 202, {});
      await api().inbox.take('password-reset', alice.email);
      for (const body of [{}, { email: 'not-an-email' }, { email: ['alice@example.com'] }]) {
        await expectValidationFailure(await api().send('POST', '/auth/password-reset', body), ['email']);
      }
    });
  });
}


/**
 * What mail may cost (docs/security.md, Mail bombing): the recipient's budget, whatever route
 * asks for mail, and the e-mail change limits of `PATCH /me`, whose 409 tells which e-mails have
 * accounts. Counted per account here; per client address, and across processes, in
 * tests/processes/mail-scale-out.integration.test.ts.
 */
export function describeMailBudgets(api: () => HttpApi, target: HttpTarget): void {
  const local = inProcessOnly(target);
  const auth = (token: string) => ({ authorization: `Bearer ${token}` });
  const moveTo = (token: string, email: string) => api().send('PATCH', '/me', { email, currentPassword: PASSWORD }, auth(token));

  describe('the budgets of mail', () => {
    local.it('sends one address at most 10 mails an hour, whatever asks for them, without changing an answer; then sends again', async () => {
      const { token } = await api().signUp();
      await api().elapse(1);
      const statuses: number[] = [];
      const send = async (method: string, path: string, body?: unknown) => {
        statuses.push((await api().send(method, path, body, auth(token))).status);
        await api().elapse(1);
      };
      for (let i = 0; i < 3; i++) await send('POST', '/me/verify-email');
      for (let i = 0; i < 3; i++) await send('POST', '/auth/password-reset', { email: alice.email });
      let password = PASSWORD;
      for (let i = 0; i < 4; i++) {
        const next = `passphrase number ${i}`;
        await send('POST', '/auth/password', { currentPassword: password, newPassword: next });
        password = next;
      }
      expect(statuses).toEqual([202, 202, 202, 202, 202, 202, 200, 200, 200, 200]);
      const outcomes = ((await api().mail?.deliver()) ?? []).map(({ message, outcome }) => `${message.kind} ${outcome.status === 'dropped' ? outcome.reason : outcome.status}`);
      // The signup's verification was the first; the resets were asked for before the password changed (nothing to send).
      expect(outcomes.filter((line) => line.endsWith(' sent'))).toHaveLength(8);
      expect(outcomes.filter((line) => line.startsWith('password-changed'))).toEqual(['password-changed sent', 'password-changed sent', 'password-changed sent', 'password-changed sent']);
      for (const next of ['the ninth mail now', 'the tenth mail now', 'one mail too many']) {
        await send('POST', '/auth/password', { currentPassword: password, newPassword: next });
        password = next;
      }
      expect(statuses.slice(-3)).toEqual([200, 200, 200]);
      expect((await api().mail?.deliver())?.map(({ outcome }) => outcome)).toEqual([{ status: 'sent' }, { status: 'sent' }, { status: 'dropped', reason: 'over-budget' }]);
      const sent = api().mail?.sender.sent.filter((mail) => mail.to === alice.email) ?? [];
      expect(sent).toHaveLength(10);
      await api().elapse(HOUR_MS);
      await send('POST', '/auth/password', { currentPassword: password, newPassword: 'an hour later now' });
      expect((await api().mail?.deliver())?.map(({ outcome }) => outcome)).toEqual([{ status: 'sent' }]);
    });

    local.it('sends the notice of an e-mail change to the old address without naming the new one', async () => {
      const { token } = await api().signUp();
      await expectJson(await moveTo(token, 'alicia@example.org'), 200, { user: expect.objectContaining({ email: 'alicia@example.org' }) });
      await api().mail?.deliver();
      const notices = api().mail?.sender.sent.filter((mail) => mail.kind === 'email-changed') ?? [];
      expect(notices).toHaveLength(1);
      expect(notices[0]?.to).toBe(alice.email);
      expect(JSON.stringify(notices[0])).not.toContain('alicia');
    });

    it('allows 3 e-mail changes an hour per account, a taken e-mail included, then 429 with Retry-After, changing nothing', async () => {
      const { token } = await api().signUp();
      await api().signUp({ email: bob.email });
      await expectJson(await moveTo(token, 'one@example.org'), 200, { user: expect.objectContaining({ email: 'one@example.org' }) });
      await expectError(await moveTo(token, bob.email), 409, 'Email already in use');
      await expectJson(await moveTo(token, 'two@example.org'), 200, { user: expect.objectContaining({ email: 'two@example.org' }) });
      for (const email of ['three@example.org', bob.email]) {
        const refused = await moveTo(token, email);
        expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(3500);
        expect(refused.headers.get('cache-control')).toBe('no-store');
        await expectError(refused, 429, 'Too many attempts, try again later');
      }
      await expectJson(await api().me(token), 200, { user: expect.objectContaining({ email: 'two@example.org' }) });
      // A name alone is no e-mail change.
      await expectJson(await api().send('PATCH', '/me', { name: 'Still Alice' }, auth(token)), 200, { user: expect.objectContaining({ name: 'Still Alice' }) });
    });

    it('counts no e-mail change whose current password is wrong: that one is a failed login', async () => {
      const { token } = await api().signUp();
      for (let i = 0; i < 4; i++) {
        await expectError(await api().send('PATCH', '/me', { email: `x${i}@example.org`, currentPassword: 'not the password' }, auth(token)), 403, 'Current password is incorrect');
      }
      await expectJson(await moveTo(token, 'one@example.org'), 200, { user: expect.objectContaining({ email: 'one@example.org' }) });
    });
  });
}

/**
 * A password reset where posts have owners: the sessions it ends can no longer write, the one it
 * starts writes as the same author.
 */
export function describeOwnerMail(api: () => HttpApi): void {
  describe('password reset', () => {
    it('ends the tokens that wrote posts, and the new one writes as the same author', async () => {
      const { token: before, user } = await api().signUp();
      const post = { title: 'Mine', body: 'Still mine', published: true };
      await expectJson(await api().send('POST', '/posts', post, auth(before)), 201, { post: expect.objectContaining({ authorId: user.id }) });
      await api().elapse(1);
      await api().send('POST', '/auth/password-reset', { email: alice.email });
      const { token: link } = await api().inbox.take('password-reset', alice.email);
      const { token: after } = (await expectJson(await api().send('POST', '/auth/password-reset/confirm', { token: link, newPassword: NEW_PASSWORD }), 200, signedInShape)) as {
        token: string;
      };
      await expectError(await api().send('POST', '/posts', post, auth(before)), 401, 'Invalid token');
      await expectJson(await api().send('POST', '/posts', post, auth(after)), 201, { post: expect.objectContaining({ authorId: user.id }) });
    });
  });
}

/**
 * Mail off (production without `MAIL_URL`): the mail endpoints are unknown paths, absent from the
 * OpenAPI document, and nothing is mailed. `target` runs with mail off, in this process.
 */
export function describeMailOff(target: HttpTarget): void {
  describe(`HTTP API on ${target.label}, mail off`, () => {
    const api = target.use();
    it('answers 404 Not found on every mail endpoint, for every method, and leaves them out of the OpenAPI document', async () => {
      const { token } = await api().signUp();
      for (const path of ['/auth/password-reset', '/auth/password-reset/confirm', '/auth/verify-email', '/me/verify-email']) {
        for (const method of ['POST', 'GET']) {
          await expectError(await api().request(path, { method, headers: { 'content-type': 'application/json', ...auth(token) }, body: method === 'GET' ? undefined : '{}' }), 404, 'Not found');
        }
      }
      const document = (await (await api().request('/openapi.json')).json()) as { paths: Record<string, unknown>; components: { schemas: Record<string, unknown> } };
      expect(Object.keys(document.paths).filter((path) => /password-reset|verify-email/.test(path))).toEqual([]);
      expect(Object.keys(document.components.schemas).filter((name) => /PasswordReset|VerifyEmail/.test(name))).toEqual([]);
    });

    it('still serves GET /me/account, unverified for an account never verified, and sends nothing', async () => {
      const { token, user } = await api().signUp();
      const res = await api().request('/me/account', { headers: auth(token) });
      expect(res.headers.get('cache-control')).toBe('no-store');
      await expectJson(res, 200, { account: { ...user, emailVerified: false, createdAt: api().clock.now(), updatedAt: api().clock.now() } });
      await expectJson(await api().me(token), 200, { user });
      await expectError(await api().request('/me/account'), 401, 'Missing authorization header');
      const document = (await (await api().request('/openapi.json')).json()) as { paths: Record<string, unknown>; components: { schemas: Record<string, unknown> } };
      expect(Object.keys(document.paths)).toContain('/me/account');
      expect(Object.keys(document.components.schemas)).toContain('Account');
      expect(api().mail).toBeNull();
      expect(await api().inkwell.store.outbox.claim('test', Number.MAX_SAFE_INTEGER, Number.MAX_SAFE_INTEGER, 10)).toEqual([]);
    });
  });
}
