import { describe, expect, it, vi } from 'vitest';
import type { UserRepository } from './ports.js';
import { rejection } from '../test-support/rejection.js';
import { ALICE, aliceWithMail, bodyOf } from '../test-support/signed-up.js';
import { createInMemoryAttemptLimiter } from './in-memory-attempt-limiter.js';
import { requestPasswordReset } from './request-password-reset.js';

const HOUR_S = 3600;

/** Alice with mail on, and the reset limits of the contract: 3 per e-mail from one client address, 10 per e-mail and 30 per address, an hour each. */
async function limited() {
  const alice = await aliceWithMail();
  const mailLimits = {
    resetsPerEmailFromAddress: createInMemoryAttemptLimiter({ max: 3, windowSeconds: HOUR_S, clock: alice.clock }),
    resetsPerEmail: createInMemoryAttemptLimiter({ max: 10, windowSeconds: HOUR_S, clock: alice.clock }),
    resetsPerAddress: createInMemoryAttemptLimiter({ max: 30, windowSeconds: HOUR_S, clock: alice.clock }),
  };
  const ask = (email: string, clientAddress = '192.0.2.1') =>
    requestPasswordReset({ ...alice.deps, mailLimits }, { body: bodyOf({ email }), client: { clientAddress } });
  return { ...alice, ask };
}

/** Every call made to `users`, by method name. */
function countingUsers(users: UserRepository) {
  const calls: string[] = [];
  const counted = new Proxy(users, {
    get: (target, name, receiver) => {
      const value: unknown = Reflect.get(target, name, receiver);
      return typeof value === 'function' ? (...args: unknown[]) => (calls.push(String(name)), (value as (...a: unknown[]) => unknown).apply(target, args)) : value;
    },
  });
  return { counted, calls };
}

describe('requestPasswordReset', () => {
  it('accepts one message naming the address with a new 256-bit token, and looks no account up, known or not', async () => {
    const { deps, outbox, clock } = await aliceWithMail();
    const { counted, calls } = countingUsers(deps.users);
    const everyPort = { ...deps, users: counted };
    const addSpy = vi.spyOn(outbox, 'add');
    for (const email of [ALICE.email, 'nobody@example.com']) {
      expect(await requestPasswordReset(everyPort, { body: bodyOf({ email }) })).toBeUndefined();
    }
    expect(calls).toEqual([]);
    expect(addSpy.mock.calls).toStrictEqual([
      [{ kind: 'password-reset', to: ALICE.email, token: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/), requestedAt: clock.now() }],
      [{ kind: 'password-reset', to: 'nobody@example.com', token: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/), requestedAt: clock.now() }],
    ]);
    expect(addSpy.mock.calls[0]?.[0].token).not.toBe(addSpy.mock.calls[1]?.[0].token);
  });

  it('sends the link only to an address an account has', async () => {
    const { deps, deliver } = await aliceWithMail();
    await requestPasswordReset(deps, { body: bodyOf({ email: 'nobody@example.com' }) });
    await requestPasswordReset(deps, { body: bodyOf({ email: ALICE.email }) });
    expect(await deliver()).toMatchObject([{ kind: 'password-reset', to: ALICE.email, token: expect.any(String) }]);
  });

  it('trims and lower-cases the e-mail, and refuses an invalid one with every issue, accepting nothing', async () => {
    const { deps, outbox } = await aliceWithMail();
    const addSpy = vi.spyOn(outbox, 'add');
    await requestPasswordReset(deps, { body: bodyOf({ email: '  Alice@Example.COM ' }) });
    expect(addSpy.mock.calls[0]?.[0].to).toBe(ALICE.email);
    for (const body of [{}, { email: 'not-an-email' }, { email: 42 }, []]) {
      expect((await rejection(requestPasswordReset(deps, { body: bodyOf(body) }))).code).toBe('ValidationFailed');
    }
    expect(addSpy).toHaveBeenCalledTimes(1);
  });

  it('allows 3 requests per e-mail from one client address an hour, known or not, then TooManyAttempts with the wait; a refused one is not counted', async () => {
    const { ask, clock, outbox } = await limited();
    const addSpy = vi.spyOn(outbox, 'add');
    for (const email of [ALICE.email, 'nobody@example.com']) {
      for (let i = 0; i < 3; i++) await ask(email, '198.51.100.1');
      const refused = await rejection(ask(email.toUpperCase(), '198.51.100.1'));
      expect([refused.code, refused.retryAfterSeconds]).toEqual(['TooManyAttempts', HOUR_S]);
    }
    expect(addSpy).toHaveBeenCalledTimes(6);
    clock.advance(HOUR_S * 1000);
    await ask(ALICE.email, '198.51.100.1');
  });

  it("lets one client's requests for an address use up nobody else's: another client address still asks", async () => {
    const { ask } = await limited();
    for (let i = 0; i < 3; i++) await ask(ALICE.email, '203.0.113.66');
    expect((await rejection(ask(ALICE.email, '203.0.113.66'))).code).toBe('TooManyAttempts');
    await ask(ALICE.email, '192.0.2.10');
  });

  it('caps the requests for one e-mail at 10 an hour from every client address together, known or not', async () => {
    const { ask, clock } = await limited();
    for (const email of [ALICE.email, 'nobody@example.com']) {
      for (let i = 0; i < 10; i++) await ask(email, `198.51.100.${i}`);
      const refused = await rejection(ask(email, '198.51.100.200'));
      expect([refused.code, refused.retryAfterSeconds]).toEqual(['TooManyAttempts', HOUR_S]);
    }
    clock.advance(HOUR_S * 1000);
    await ask(ALICE.email, '198.51.100.200');
  });

  it('counts a request without a known client address against the e-mail cap only', async () => {
    const { deps, clock } = await aliceWithMail();
    const resetsPerEmail = createInMemoryAttemptLimiter({ max: 2, windowSeconds: HOUR_S, clock });
    const resetsPerEmailFromAddress = createInMemoryAttemptLimiter({ max: 1, windowSeconds: HOUR_S, clock });
    const ask = () => requestPasswordReset({ ...deps, mailLimits: { resetsPerEmail, resetsPerEmailFromAddress } }, { body: bodyOf({ email: ALICE.email }) });
    await ask();
    await ask();
    expect((await rejection(ask())).code).toBe('TooManyAttempts');
  });

  it('allows 30 requests per client address an hour, whatever the e-mails', async () => {
    const { ask } = await limited();
    for (let i = 0; i < 30; i++) await ask(`user${i}@example.com`);
    expect((await rejection(ask('another@example.com'))).code).toBe('TooManyAttempts');
    await ask('another@example.com', '192.0.2.2');
  });

  it('does not count a request the outbox failed to store', async () => {
    const { ask, outbox } = await limited();
    const failure = new Error('store down');
    vi.spyOn(outbox, 'add').mockRejectedValue(failure);
    for (let i = 0; i < 5; i++) await expect(ask(ALICE.email)).rejects.toBe(failure);
    vi.mocked(outbox.add).mockRestore();
    for (let i = 0; i < 3; i++) await ask(ALICE.email);
    expect((await rejection(ask(ALICE.email))).code).toBe('TooManyAttempts');
  });

  it('is not offered when mail is off, before the body is read', async () => {
    const { deps } = await aliceWithMail();
    const body = vi.fn(async () => ({ email: ALICE.email }));
    expect((await rejection(requestPasswordReset({ ...deps, outbox: undefined }, { body }))).code).toBe('NotOffered');
    expect(body).not.toHaveBeenCalled();
  });
});
