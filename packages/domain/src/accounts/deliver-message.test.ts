import { describe, expect, it } from 'vitest';
import { DELIVERY_WINDOW_MS } from '../mail/delivery-schedule.js';
import type { NewMessage } from '../mail/message.js';
import { isDomainError } from '../shared/errors.js';
import { deliverDueMessages } from '../test-support/mail.js';
import { ALICE, bodyOf, mailDeps } from '../test-support/signed-up.js';
import { createInMemoryAttemptLimiter } from './in-memory-attempt-limiter.js';
import { deliverMessage } from './deliver-message.js';
import { hashLinkToken, newLinkToken } from './link-tokens.js';
import { DEFAULT_MAIL_RULES } from './mail-rules.js';
import { signUp } from './sign-up.js';

const MINUTE = 60_000;

/** Alice signed up on mail deps, with her signup's own messages delivered out of the way. */
async function aliceWithMail() {
  const deps = mailDeps();
  const { user } = await signUp(deps, { body: bodyOf(ALICE) });
  await deliverDueMessages(deps);
  deps.mailer.sent.length = 0;
  // Later than the signup: a reset asked for in the very millisecond an account's password was set is not recorded.
  deps.clock.advance(1);
  const add = (message: Partial<NewMessage> & Pick<NewMessage, 'kind'>) =>
    deps.outbox.add({ to: ALICE.email, requestedAt: deps.clock.now(), ...message });
  const deliver = async () => (await deliverDueMessages(deps)).map(({ outcome }) => outcome);
  return { deps, user, add, deliver };
}

describe('deliverMessage', () => {
  describe('a password reset', () => {
    it('records the hash of the token with the account, then sends the link to the address, and removes the message', async () => {
      const { deps, user, add, deliver } = await aliceWithMail();
      const token = newLinkToken();
      const message = await add({ kind: 'password-reset', token });
      expect(await deliver()).toEqual([{ status: 'sent' }]);
      expect(deps.mailer.sent).toStrictEqual([
        { messageId: message.id, kind: 'password-reset', to: ALICE.email, name: ALICE.name, token, linkExpiresAt: message.requestedAt + 30 * MINUTE },
      ]);
      expect(await deps.users.findByPasswordReset(await hashLinkToken(token), deps.clock.now())).toMatchObject({ id: user.id });
      expect(await deps.users.findByPasswordReset(token, deps.clock.now())).toBeNull();
      expect(await deps.outbox.claim('anyone', deps.clock.now() + DELIVERY_WINDOW_MS, 25_000, 10)).toEqual([]);
    });

    it('is valid for the reset lifetime the rules say, from the request', async () => {
      const { deps, add } = await aliceWithMail();
      const token = newLinkToken();
      await add({ kind: 'password-reset', token });
      const requestedAt = deps.clock.now();
      await deliverDueMessages({ ...deps, mailRules: { ...DEFAULT_MAIL_RULES, passwordResetTtlMs: 5 * MINUTE, emailVerificationTtlMs: MINUTE } });
      expect(deps.mailer.sent[0]?.linkExpiresAt).toBe(requestedAt + 5 * MINUTE);
      const hash = await hashLinkToken(token);
      expect(await deps.users.findByPasswordReset(hash, requestedAt + 5 * MINUTE - 1)).not.toBeNull();
      expect(await deps.users.findByPasswordReset(hash, requestedAt + 5 * MINUTE)).toBeNull();
    });

    it('sends nothing to an address no account has, and drops the message', async () => {
      const { deps, add, deliver } = await aliceWithMail();
      await add({ kind: 'password-reset', to: 'nobody@example.com', token: newLinkToken() });
      expect(await deliver()).toEqual([{ status: 'dropped', reason: 'no-account' }]);
      expect(deps.mailer.sent).toEqual([]);
      expect(await deps.outbox.claim('anyone', deps.clock.now(), 25_000, 10)).toEqual([]);
    });

    it('sends every one of several requests, whatever order they are delivered in, and each link works', async () => {
      const { deps, add } = await aliceWithMail();
      const older = await add({ kind: 'password-reset', token: newLinkToken() });
      deps.clock.advance(1);
      const newer = await add({ kind: 'password-reset', token: newLinkToken() });
      const holder = 'h';
      const now = deps.clock.now();
      await deps.outbox.claim(holder, now, 25_000, 10);
      expect(await deliverMessage(deps, { message: newer, holder })).toEqual({ status: 'sent' });
      expect(await deliverMessage(deps, { message: older, holder })).toEqual({ status: 'sent' });
      expect(deps.mailer.sent.map((mail) => mail.token)).toEqual([newer.token, older.token]);
      for (const { token } of [older, newer]) expect(await deps.users.findByPasswordReset(await hashLinkToken(token ?? ''), now)).not.toBeNull();
    });

    it('keeps as many links working as the rules say an account keeps, and past them the newest', async () => {
      const { deps, add } = await aliceWithMail();
      const kept = 3;
      const tokens: string[] = [];
      for (let i = 0; i <= kept; i++) {
        tokens.push(newLinkToken());
        await add({ kind: 'password-reset', token: tokens[i] });
        deps.clock.advance(1);
      }
      const outcomes = await deliverDueMessages({ ...deps, mailRules: { ...DEFAULT_MAIL_RULES, passwordResetLinksKept: kept } });
      expect(outcomes.map(({ outcome }) => outcome)).toEqual(tokens.map(() => ({ status: 'sent' })));
      const works = await Promise.all(tokens.map(async (token) => (await deps.users.findByPasswordReset(await hashLinkToken(token), deps.clock.now())) !== null));
      expect(works).toEqual([false, ...Array<boolean>(kept).fill(true)]);
    });

    it(`keeps ${DEFAULT_MAIL_RULES.passwordResetLinksKept} links by default: every link the default cap of 10 requests an hour lets one e-mail ask for while a link lives`, async () => {
      expect(DEFAULT_MAIL_RULES.passwordResetLinksKept).toBe(20);
      const { deps, add, deliver } = await aliceWithMail();
      const tokens: string[] = [];
      for (let i = 0; i < DEFAULT_MAIL_RULES.passwordResetLinksKept; i++) {
        tokens.push(newLinkToken());
        await add({ kind: 'password-reset', token: tokens[i] });
        deps.clock.advance(1);
      }
      await deliver();
      for (const token of tokens) expect(await deps.users.findByPasswordReset(await hashLinkToken(token), deps.clock.now())).not.toBeNull();
    });

    it('sends nothing for a request made before the password last changed', async () => {
      const { deps, user, add, deliver } = await aliceWithMail();
      await add({ kind: 'password-reset', token: newLinkToken() });
      deps.clock.advance(1);
      await deps.users.changePassword(user.id, 'fake-hash:another password', null, deps.clock.now());
      expect(await deliver()).toEqual([{ status: 'dropped', reason: 'superseded' }]);
      expect(deps.mailer.sent).toEqual([]);
    });

    it('sends no link that would have expired by the time it arrives', async () => {
      const { deps, add, deliver } = await aliceWithMail();
      await add({ kind: 'password-reset', token: newLinkToken() });
      deps.clock.advance(30 * MINUTE);
      expect(await deliver()).toEqual([{ status: 'dropped', reason: 'link-expired' }]);
      expect(deps.mailer.sent).toEqual([]);
    });
  });

  describe('an e-mail verification', () => {
    it('records the hash with the account and sends the link, valid 24 hours', async () => {
      const { deps, user, add, deliver } = await aliceWithMail();
      const token = newLinkToken();
      const message = await add({ kind: 'email-verification', userId: user.id, token });
      expect(await deliver()).toEqual([{ status: 'sent' }]);
      expect(deps.mailer.sent).toStrictEqual([
        { messageId: message.id, kind: 'email-verification', to: ALICE.email, name: ALICE.name, token, linkExpiresAt: message.requestedAt + 24 * 60 * MINUTE },
      ]);
      expect(await deps.users.verifyEmail(await hashLinkToken(token), deps.clock.now())).toMatchObject({ id: user.id, emailVerified: true });
    });

    it('sends nothing to an account that is gone, that left the address, or whose address is verified', async () => {
      const { deps, user, add, deliver } = await aliceWithMail();
      await add({ kind: 'email-verification', userId: 'someone-else', token: newLinkToken() });
      await add({ kind: 'email-verification', userId: user.id, to: 'old@example.com', token: newLinkToken() });
      expect(await deliver()).toEqual([
        { status: 'dropped', reason: 'no-account' },
        { status: 'dropped', reason: 'address-changed' },
      ]);
      const token = newLinkToken();
      await add({ kind: 'email-verification', userId: user.id, token });
      await deliver();
      await deps.users.verifyEmail(await hashLinkToken(token), deps.clock.now());
      deps.mailer.sent.length = 0;
      await add({ kind: 'email-verification', userId: user.id, token: newLinkToken() });
      expect(await deliver()).toEqual([{ status: 'dropped', reason: 'already-verified' }]);
      expect(deps.mailer.sent).toEqual([]);
    });
  });

  describe('a notice', () => {
    it('goes to its address with the account\'s name, without a link, and names no address but its own', async () => {
      const { deps, user, add, deliver } = await aliceWithMail();
      const changed = await add({ kind: 'password-changed', userId: user.id });
      const moved = await add({ kind: 'email-changed', userId: user.id, to: 'old@example.com' });
      expect(await deliver()).toEqual([{ status: 'sent' }, { status: 'sent' }]);
      expect(deps.mailer.sent).toStrictEqual([
        { messageId: changed.id, kind: 'password-changed', to: ALICE.email, name: ALICE.name },
        { messageId: moved.id, kind: 'email-changed', to: 'old@example.com', name: ALICE.name },
      ]);
    });

    it('is dropped when the account is gone, or the message names none', async () => {
      const { deps, user, add, deliver } = await aliceWithMail();
      await add({ kind: 'password-changed', userId: user.id });
      await add({ kind: 'password-changed' });
      await add({ kind: 'password-reset' });
      await deps.users.delete(user.id);
      expect(await deliver()).toEqual([
        { status: 'dropped', reason: 'no-account' },
        { status: 'dropped', reason: 'malformed' },
        { status: 'dropped', reason: 'malformed' },
      ]);
      expect(deps.mailer.sent).toEqual([]);
    });
  });

  describe('when the mail server does not accept it', () => {
    it('is tried again 5 s later, then with backoff, with the same token and id, and sent once the server is back', async () => {
      const { deps, add, deliver } = await aliceWithMail();
      const token = newLinkToken();
      const message = await add({ kind: 'password-reset', token });
      const refused = new Error('connect ECONNREFUSED 127.0.0.1:25');
      deps.mailer.refusing = refused;
      const start = deps.clock.now();
      expect(await deliver()).toEqual([{ status: 'retried', nextAttemptAt: start + 5_000, error: refused }]);
      deps.clock.advance(4_999);
      expect(await deliver()).toEqual([]);
      deps.clock.advance(1);
      expect(await deliver()).toEqual([{ status: 'retried', nextAttemptAt: start + 15_000, error: refused }]);
      deps.clock.set(start + 15_000);
      deps.mailer.refusing = null;
      expect(await deliver()).toEqual([{ status: 'sent' }]);
      expect(deps.mailer.sent).toMatchObject([{ messageId: message.id, token }]);
      expect(await deps.users.findByPasswordReset(await hashLinkToken(token), deps.clock.now())).not.toBeNull();
    });

    it('is dropped, expired, once its next try would fall 24 hours after the request, and so is one that waited that long', async () => {
      const { deps, add, deliver } = await aliceWithMail();
      await add({ kind: 'password-changed', userId: (await deps.users.findByEmail(ALICE.email))?.id });
      const refused = new Error('550 mailbox unavailable');
      deps.mailer.refusing = refused;
      const start = deps.clock.now();
      deps.clock.set(start + DELIVERY_WINDOW_MS - 1_000);
      expect(await deliver()).toEqual([{ status: 'expired', error: refused }]);
      expect(await deps.outbox.claim('anyone', Infinity, 25_000, 10)).toEqual([]);

      await add({ kind: 'password-changed' });
      deps.clock.advance(DELIVERY_WINDOW_MS);
      expect(await deliver()).toEqual([{ status: 'expired' }]);
      expect(await deps.outbox.claim('anyone', Infinity, 25_000, 10)).toEqual([]);
    });
  });

  it('leaves a message it could not settle (the store failed) to be claimed again once its lease ends', async () => {
    const { deps, add } = await aliceWithMail();
    await add({ kind: 'password-reset', token: newLinkToken() });
    const failure = new Error('store down');
    const users = { ...deps.users, recordPasswordReset: async () => Promise.reject(failure) };
    await expect(deliverDueMessages({ ...deps, users })).rejects.toBe(failure);
    expect(await deps.outbox.claim('other', deps.clock.now() + 24_999, 25_000, 10)).toEqual([]);
    expect(await deps.outbox.claim('other', deps.clock.now() + 25_000, 25_000, 10)).toHaveLength(1);
  });

  describe("the recipient's budget", () => {
    /** Alice on mail deps with a budget of `max` mails per address an hour. */
    async function withBudget(max: number) {
      const alice = await aliceWithMail();
      const budget = createInMemoryAttemptLimiter({ max, windowSeconds: 3600, clock: alice.deps.clock });
      const deps = { ...alice.deps, mailLimits: { mailsPerRecipient: budget } };
      const deliver = async () => (await deliverDueMessages(deps)).map(({ outcome }) => outcome);
      return { ...alice, deps, deliver, budget };
    }

    it('sends at most its budget to one address an hour, whatever the kind, drops the rest, and sends again once the hour is over', async () => {
      const { deps, user, add, deliver } = await withBudget(3);
      await add({ kind: 'password-reset', token: newLinkToken() });
      await add({ kind: 'email-verification', userId: user.id, token: newLinkToken() });
      await add({ kind: 'password-changed', userId: user.id });
      await add({ kind: 'password-reset', token: newLinkToken() });
      await add({ kind: 'email-changed', userId: user.id });
      expect(await deliver()).toEqual([
        { status: 'sent' },
        { status: 'sent' },
        { status: 'sent' },
        { status: 'dropped', reason: 'over-budget' },
        { status: 'dropped', reason: 'over-budget' },
      ]);
      expect(deps.mailer.sent.map((mail) => mail.kind)).toEqual(['password-reset', 'email-verification', 'password-changed']);
      // Another address has its own budget.
      await add({ kind: 'email-changed', userId: user.id, to: 'old@example.com' });
      expect(await deliver()).toEqual([{ status: 'sent' }]);
      deps.clock.advance(60 * MINUTE);
      await add({ kind: 'password-changed', userId: user.id });
      expect(await deliver()).toEqual([{ status: 'sent' }]);
    });

    it('records no link for a mail over the budget', async () => {
      const { deps, add, deliver } = await withBudget(1);
      await add({ kind: 'password-reset', token: newLinkToken() });
      const token = newLinkToken();
      await add({ kind: 'password-reset', token });
      expect(await deliver()).toEqual([{ status: 'sent' }, { status: 'dropped', reason: 'over-budget' }]);
      expect(await deps.users.findByPasswordReset(await hashLinkToken(token), deps.clock.now())).toBeNull();
    });

    it('counts a mail that was not sent back: refused by the mail server, or with nothing to send to an account', async () => {
      const { deps, user, add, deliver } = await withBudget(1);
      deps.mailer.refusing = new Error('down');
      await add({ kind: 'password-changed', userId: user.id });
      expect(await deliver()).toMatchObject([{ status: 'retried' }]);
      deps.mailer.refusing = null;
      await add({ kind: 'email-verification', userId: user.id, to: 'old@example.com', token: newLinkToken() });
      deps.clock.advance(5_000);
      expect(await deliver()).toEqual([{ status: 'dropped', reason: 'address-changed' }, { status: 'sent' }]);
      expect(deps.mailer.sent.map((mail) => mail.kind)).toEqual(['password-changed']);
    });

    it("counts one mailbox's budget across the +tag variants of its address, and sends each to the address as written", async () => {
      const { deps, user, add, deliver } = await withBudget(3);
      // A reset counts whether or not an account has the address; a verification to an address the account left does not.
      await add({ kind: 'password-reset', to: 'alice+1@example.com', token: newLinkToken() });
      await add({ kind: 'email-verification', userId: user.id, to: 'alice+2@example.com', token: newLinkToken() });
      await add({ kind: 'password-changed', userId: user.id });
      expect(await deliver()).toEqual([
        { status: 'dropped', reason: 'no-account' },
        { status: 'dropped', reason: 'address-changed' },
        { status: 'sent' },
      ]);
      await add({ kind: 'email-changed', userId: user.id, to: 'alice+3@example.com' });
      await add({ kind: 'email-changed', userId: user.id, to: 'alice+4@example.com' });
      expect(await deliver()).toEqual([{ status: 'sent' }, { status: 'dropped', reason: 'over-budget' }]);
      expect(deps.mailer.sent.map((mail) => mail.to)).toEqual([ALICE.email, 'alice+3@example.com']);
    });

    it('keeps the last of the budget for the notices: link mails stop at their own, lower limit, counted in the budget too', async () => {
      const alice = await aliceWithMail();
      const { deps: base, user, add } = alice;
      const clock = base.clock;
      const mailsPerRecipient = createInMemoryAttemptLimiter({ max: 4, windowSeconds: 3600, clock });
      const linkMailsPerRecipient = createInMemoryAttemptLimiter({ max: 2, windowSeconds: 3600, clock });
      const deps = { ...base, mailLimits: { mailsPerRecipient, linkMailsPerRecipient } };
      const deliver = async () => (await deliverDueMessages(deps)).map(({ outcome }) => outcome);
      // A stranger's resets (for the address and a +tag variant of it) and a verification spend the links' part.
      await add({ kind: 'password-reset', token: newLinkToken() });
      await add({ kind: 'password-reset', to: 'alice+x@example.com', token: newLinkToken() });
      await add({ kind: 'password-reset', token: newLinkToken() });
      await add({ kind: 'email-verification', userId: user.id, token: newLinkToken() });
      expect(await deliver()).toEqual([
        { status: 'sent' },
        { status: 'dropped', reason: 'no-account' },
        { status: 'dropped', reason: 'over-budget' },
        { status: 'dropped', reason: 'over-budget' },
      ]);
      // The notices still go, up to the whole budget, and not one more.
      await add({ kind: 'password-changed', userId: user.id });
      await add({ kind: 'email-changed', userId: user.id });
      await add({ kind: 'password-changed', userId: user.id });
      expect(await deliver()).toEqual([{ status: 'sent' }, { status: 'sent' }, { status: 'dropped', reason: 'over-budget' }]);
      expect(deps.mailer.sent.map((mail) => mail.kind)).toEqual(['password-reset', 'password-changed', 'email-changed']);
      // Link mails the whole budget refuses give their own limit's count back.
      clock.advance(60 * MINUTE);
      for (let i = 0; i < 4; i++) await add({ kind: 'password-changed', userId: user.id });
      await add({ kind: 'password-reset', token: newLinkToken() });
      await add({ kind: 'password-reset', token: newLinkToken() });
      expect((await deliver()).slice(-2)).toEqual([
        { status: 'dropped', reason: 'over-budget' },
        { status: 'dropped', reason: 'over-budget' },
      ]);
      for (let i = 0; i < 2; i++) expect(await linkMailsPerRecipient.take(ALICE.email)).toMatchObject({ allowed: true });
    });

    it('counts a reset for an address without an account as one with: the same work for both', async () => {
      const { add, deliver, budget } = await withBudget(2);
      await add({ kind: 'password-reset', to: 'nobody@example.com', token: newLinkToken() });
      await add({ kind: 'password-reset', to: 'nobody@example.com', token: newLinkToken() });
      await add({ kind: 'password-reset', to: 'nobody@example.com', token: newLinkToken() });
      expect(await deliver()).toEqual([
        { status: 'dropped', reason: 'no-account' },
        { status: 'dropped', reason: 'no-account' },
        { status: 'dropped', reason: 'over-budget' },
      ]);
      expect(await budget.take('nobody@example.com')).toMatchObject({ allowed: false });
    });
  });

  describe('a reset, with or without an account at the address', () => {
    it('takes the same steps of the store for both: the budget, then one look-up that records the link', async () => {
      const { deps, add } = await aliceWithMail();
      const steps: string[] = [];
      const budget = createInMemoryAttemptLimiter({ max: 10, windowSeconds: 3600, clock: deps.clock });
      const counted = {
        ...deps,
        users: new Proxy(deps.users, { get: (target, name: keyof typeof deps.users) => (...args: unknown[]) => (steps.push(`users.${String(name)}`), (target[name] as (...a: unknown[]) => unknown)(...args)) }),
        outbox: new Proxy(deps.outbox, { get: (target, name: keyof typeof deps.outbox) => (...args: unknown[]) => (steps.push(`outbox.${String(name)}`), (target[name] as (...a: unknown[]) => unknown)(...args)) }),
        mailLimits: { mailsPerRecipient: { take: (key: string) => (steps.push('budget.take'), budget.take(key)), giveBack: budget.giveBack, reset: budget.reset } },
      };
      const stepsOf = async (to: string) => {
        await add({ kind: 'password-reset', to, token: newLinkToken() });
        steps.length = 0;
        await deliverDueMessages(counted);
        return steps.slice();
      };
      const known = await stepsOf(ALICE.email);
      const unknown = await stepsOf('nobody@example.com');
      expect(known).toEqual(['outbox.claim', 'budget.take', 'users.recordPasswordReset', 'outbox.remove']);
      expect(unknown).toEqual(known);
    });
  });

  describe('with a lease that can no longer be kept', () => {
    it('sends nothing and leaves the message alone when the lease is lost before the send', async () => {
      const { deps, add } = await aliceWithMail();
      const message = await add({ kind: 'password-reset', token: newLinkToken() });
      await deps.outbox.claim('h', deps.clock.now(), 25_000, 10);
      const lease = new AbortController();
      lease.abort();
      expect(await deliverMessage(deps, { message, holder: 'h', lease: lease.signal })).toEqual({ status: 'abandoned' });
      expect(deps.mailer.sent).toEqual([]);
      expect(await deps.outbox.renew(message.id, 'h', deps.clock.now(), 25_000)).toBe(true);
    });

    it('stops a send under way, gives its budget back, and leaves the message to whoever holds it next', async () => {
      const { deps, user, add } = await aliceWithMail();
      const budget = createInMemoryAttemptLimiter({ max: 1, windowSeconds: 3600, clock: deps.clock });
      const message = await add({ kind: 'password-changed', userId: user.id });
      await deps.outbox.claim('h', deps.clock.now(), 25_000, 10);
      const lease = new AbortController();
      let sending!: () => void;
      const started = new Promise<void>((resolve) => (sending = resolve));
      const mailer = {
        send: (_mail: unknown, options?: { signal?: AbortSignal }) =>
          new Promise<void>((_, reject) => {
            options?.signal?.addEventListener('abort', () => reject(options.signal?.reason as Error));
            sending();
          }),
      };
      const delivering = deliverMessage({ ...deps, mailer, mailLimits: { mailsPerRecipient: budget } }, { message, holder: 'h', lease: lease.signal });
      await started;
      lease.abort(new Error('lease lost'));
      expect(await delivering).toMatchObject({ status: 'abandoned', error: { message: 'lease lost' } });
      expect(await budget.take(ALICE.email)).toMatchObject({ allowed: true });
      expect(await deps.outbox.claim('other', deps.clock.now() + 25_000, 25_000, 10)).toHaveLength(1);
    });
  });

  describe("at the send's point of no return", () => {
    it("hands the holder's commit to the sender, which asks it before the mail goes", async () => {
      const { deps, add } = await aliceWithMail();
      const message = await add({ kind: 'password-reset', token: newLinkToken() });
      await deps.outbox.claim('h', deps.clock.now(), 25_000, 10);
      const asked: number[] = [];
      const commit = async (holdMs: number) => void asked.push(holdMs);
      expect(await deliverMessage(deps, { message, holder: 'h', commit })).toEqual({ status: 'sent' });
      expect(asked).toEqual([0]);
      expect(deps.mailer.sent).toHaveLength(1);
    });

    it('sends nothing when the commit is refused and the lease given up, gives the budget back, and leaves the message to whoever holds it next', async () => {
      const { deps, user, add } = await aliceWithMail();
      const budget = createInMemoryAttemptLimiter({ max: 1, windowSeconds: 3600, clock: deps.clock });
      const message = await add({ kind: 'password-changed', userId: user.id });
      await deps.outbox.claim('h', deps.clock.now(), 25_000, 10);
      const lease = new AbortController();
      const commit = async () => {
        lease.abort(new Error('lease lost'));
        throw new Error('lease lost');
      };
      expect(await deliverMessage({ ...deps, mailLimits: { mailsPerRecipient: budget } }, { message, holder: 'h', lease: lease.signal, commit })).toMatchObject({ status: 'abandoned' });
      expect(deps.mailer.sent).toEqual([]);
      expect(await budget.take(ALICE.email)).toMatchObject({ allowed: true });
      expect(await deps.outbox.claim('other', deps.clock.now() + 25_000, 25_000, 10)).toHaveLength(1);
    });
  });

  it('names no token in what it answers', async () => {
    const { deps, user, add, deliver } = await aliceWithMail();
    const tokens = [newLinkToken(), newLinkToken()];
    await add({ kind: 'password-reset', token: tokens[0] });
    await add({ kind: 'email-verification', userId: user.id, token: tokens[1] });
    deps.mailer.refusing = new Error('down');
    const outcomes = JSON.stringify([...(await deliver()), ...(await deliverDueMessages({ ...deps, mailer: { send: async () => undefined } }))]);
    for (const token of tokens) expect(outcomes).not.toContain(token ?? '');
  });

  it('is not offered without an outbox and a mail sender', async () => {
    const { deps, add } = await aliceWithMail();
    const message = await add({ kind: 'password-changed' });
    for (const partial of [{ ...deps, outbox: undefined }, { ...deps, mailer: undefined }]) {
      const error = await deliverMessage(partial, { message, holder: 'h' }).catch((e: unknown) => e);
      expect(isDomainError(error, 'NotOffered')).toBe(true);
    }
  });
});
