import { describe, expect, it, vi } from 'vitest';
import { DomainError } from '../shared/errors.js';
import type { AttemptLimiter } from './attempt-limiter.js';
import { fakePasswordHasher, fakeTokenService, manualClock } from '../test-support/fakes.js';
import { createInMemoryAttemptLimiter } from './in-memory-attempt-limiter.js';
import { createInMemoryUserRepository } from './in-memory-user-repository.js';
import { logIn } from './log-in.js';
import { signUp } from './sign-up.js';
import { holdNextCall } from '../test-support/hold.js';
import { bodyOf } from '../test-support/signed-up.js';

const PASSWORD = 'correct horse battery';

async function setup(limits: { perEmail?: number; perAddress?: number; signups?: number } = {}) {
  const clock = manualClock();
  const limiter = (max: number | undefined, windowSeconds: number) =>
    max === undefined ? undefined : createInMemoryAttemptLimiter({ max, windowSeconds, clock });
  const deps = {
    users: createInMemoryUserRepository(),
    hasher: fakePasswordHasher(),
    tokens: fakeTokenService(),
    clock,
    loginLimits: { failuresPerEmail: limiter(limits.perEmail, 900), failuresPerAddress: limiter(limits.perAddress, 900) },
    signupLimits: { perAddress: limiter(limits.signups, 3600) },
  };
  await signUp(deps, { body: bodyOf({ email: 'alice@example.com', name: 'Alice', password: PASSWORD }) });
  await signUp(deps, { body: bodyOf({ email: 'bob@example.com', name: 'Bob', password: PASSWORD }) });
  return { deps, clock };
}

/** The code (and wait) a promise settles with: `ok`, or the DomainError's code. */
async function outcome(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
    return 'ok';
  } catch (error) {
    if (!(error instanceof DomainError)) throw error;
    return error.retryAfterSeconds === undefined ? error.code : `${error.code} ${error.retryAfterSeconds}s`;
  }
}

const from = (clientAddress: string) => ({ clientAddress });

describe('logIn brute-force limits', () => {
  it('refuses the attempt after max failures on one e-mail with TooManyAttempts, even with the right password', async () => {
    const { deps } = await setup({ perEmail: 3 });
    for (let i = 0; i < 3; i++) expect(await outcome(logIn(deps, { body: bodyOf({ email: 'alice@example.com', password: 'wrong' }) }))).toBe('InvalidCredentials');
    expect(await outcome(logIn(deps, { body: bodyOf({ email: 'alice@example.com', password: 'wrong' }) }))).toBe('TooManyAttempts 900s');
    expect(await outcome(logIn(deps, { body: bodyOf({ email: 'ALICE@example.com', password: PASSWORD }) }))).toBe('TooManyAttempts 900s');
    expect(await outcome(logIn(deps, { body: bodyOf({ email: 'bob@example.com', password: PASSWORD }) }))).toBe('ok');
  });

  it('does not check the password of a blocked attempt', async () => {
    const { deps } = await setup({ perEmail: 1 });
    await outcome(logIn(deps, { body: bodyOf({ email: 'alice@example.com', password: 'wrong' }) }));
    const verify = vi.spyOn(deps.hasher, 'verify');
    const find = vi.spyOn(deps.users, 'findByEmail');
    await outcome(logIn(deps, { body: bodyOf({ email: 'alice@example.com', password: PASSWORD }) }));
    expect(verify).not.toHaveBeenCalled();
    expect(find).not.toHaveBeenCalled();
  });

  it('limits unknown e-mails the same way, so a 429 reveals nothing about which exist', async () => {
    const { deps } = await setup({ perEmail: 2 });
    const results = [];
    for (let i = 0; i < 3; i++) results.push(await outcome(logIn(deps, { body: bodyOf({ email: 'nobody@example.com', password: 'x' }) })));
    expect(results).toEqual(['InvalidCredentials', 'InvalidCredentials', 'TooManyAttempts 900s']);
  });

  it('lets the window end: the e-mail may try again after it', async () => {
    const { deps, clock } = await setup({ perEmail: 2 });
    await outcome(logIn(deps, { body: bodyOf({ email: 'alice@example.com', password: 'wrong' }) }));
    clock.advance(300_000);
    await outcome(logIn(deps, { body: bodyOf({ email: 'alice@example.com', password: 'wrong' }) }));
    expect(await outcome(logIn(deps, { body: bodyOf({ email: 'alice@example.com', password: PASSWORD }) }))).toBe('TooManyAttempts 600s');
    clock.advance(600_000);
    expect(await outcome(logIn(deps, { body: bodyOf({ email: 'alice@example.com', password: PASSWORD }) }))).toBe('ok');
  });

  it('resets the e-mail count on a correct login', async () => {
    const { deps } = await setup({ perEmail: 3 });
    for (let round = 0; round < 3; round++) {
      await outcome(logIn(deps, { body: bodyOf({ email: 'alice@example.com', password: 'wrong' }) }));
      await outcome(logIn(deps, { body: bodyOf({ email: 'alice@example.com', password: 'wrong' }) }));
      expect(await outcome(logIn(deps, { body: bodyOf({ email: 'alice@example.com', password: PASSWORD }) }))).toBe('ok');
    }
  });

  it('counts failures per address across e-mails, and a correct login does not wipe the address count', async () => {
    const { deps } = await setup({ perEmail: 100, perAddress: 5 });
    for (let i = 0; i < 4; i++) await outcome(logIn(deps, { body: bodyOf({ email: `guess${i}@example.com`, password: 'x' }), client: from('203.0.113.9') }));
    // Alice logs in from the same address: allowed (4 < 5), and her success is not a failure.
    expect(await outcome(logIn(deps, { body: bodyOf({ email: 'alice@example.com', password: PASSWORD }), client: from('203.0.113.9') }))).toBe('ok');
    expect(await outcome(logIn(deps, { body: bodyOf({ email: 'guess9@example.com', password: 'x' }), client: from('203.0.113.9') }))).toBe('InvalidCredentials');
    expect(await outcome(logIn(deps, { body: bodyOf({ email: 'bob@example.com', password: PASSWORD }), client: from('203.0.113.9') }))).toBe('TooManyAttempts 900s');
    expect(await outcome(logIn(deps, { body: bodyOf({ email: 'bob@example.com', password: PASSWORD }), client: from('198.51.100.1') }))).toBe('ok');
  });

  it('gives a correct login\'s attempt back to its own window: one whose window ended while it ran frees nothing in the next', async () => {
    const { deps, clock } = await setup({ perAddress: 3 });
    const held = holdNextCall(deps.hasher, 'verify');
    const login = logIn(deps, { body: bodyOf({ email: 'alice@example.com', password: PASSWORD }), client: from('203.0.113.9') });
    await held.reached;
    clock.advance(900_000);
    for (let i = 0; i < 3; i++) expect(await outcome(logIn(deps, { body: bodyOf({ email: 'bob@example.com', password: 'wrong' }), client: from('203.0.113.9') }))).toBe('InvalidCredentials');
    held.release();
    expect(await outcome(login)).toBe('ok');
    expect(await outcome(logIn(deps, { body: bodyOf({ email: 'bob@example.com', password: 'wrong' }), client: from('203.0.113.9') }))).toBe('TooManyAttempts 900s');
  });

  it('never blocks a correct login because of failures on another e-mail below the address limit', async () => {
    const { deps } = await setup({ perEmail: 3, perAddress: 100 });
    for (let i = 0; i < 10; i++) await outcome(logIn(deps, { body: bodyOf({ email: 'bob@example.com', password: 'wrong' }), client: from('203.0.113.9') }));
    expect(await outcome(logIn(deps, { body: bodyOf({ email: 'bob@example.com', password: PASSWORD }), client: from('203.0.113.9') }))).toBe('TooManyAttempts 900s');
    expect(await outcome(logIn(deps, { body: bodyOf({ email: 'alice@example.com', password: PASSWORD }), client: from('203.0.113.9') }))).toBe('ok');
  });

  it('counts nothing for an attempt refused by validation', async () => {
    const { deps } = await setup({ perEmail: 1, perAddress: 1 });
    for (let i = 0; i < 5; i++) expect(await outcome(logIn(deps, { body: bodyOf({ email: 'alice@example.com', password: '' }), client: from('a') }))).toBe('ValidationFailed');
    expect(await outcome(logIn(deps, { body: bodyOf({ email: 'alice@example.com', password: PASSWORD }), client: from('a') }))).toBe('ok');
  });

  it('gives the attempts back when the store or the hasher fails', async () => {
    const { deps } = await setup({ perEmail: 1, perAddress: 1 });
    const find = vi.spyOn(deps.users, 'findByEmail').mockRejectedValueOnce(new DomainError('StoreUnavailable'));
    expect(await outcome(logIn(deps, { body: bodyOf({ email: 'alice@example.com', password: PASSWORD }), client: from('a') }))).toBe('StoreUnavailable');
    vi.spyOn(deps.hasher, 'verify').mockRejectedValueOnce(new DomainError('ServerBusy'));
    expect(await outcome(logIn(deps, { body: bodyOf({ email: 'alice@example.com', password: PASSWORD }), client: from('a') }))).toBe('ServerBusy');
    find.mockRestore();
    expect(await outcome(logIn(deps, { body: bodyOf({ email: 'alice@example.com', password: PASSWORD }), client: from('a') }))).toBe('ok');
  });

  it('does not count the e-mail when the address refuses', async () => {
    const { deps } = await setup({ perEmail: 1, perAddress: 1 });
    await outcome(logIn(deps, { body: bodyOf({ email: 'x@example.com', password: 'x' }), client: from('a') }));
    expect(await outcome(logIn(deps, { body: bodyOf({ email: 'alice@example.com', password: PASSWORD }), client: from('a') }))).toBe('TooManyAttempts 900s');
    expect(await outcome(logIn(deps, { body: bodyOf({ email: 'alice@example.com', password: PASSWORD }), client: from('b') }))).toBe('ok');
  });

  it('fails closed when a limiter cannot count: StoreUnavailable, nothing checked, the other attempt given back', async () => {
    const { deps } = await setup({ perEmail: 5, perAddress: 1 });
    const emails = deps.loginLimits.failuresPerEmail as AttemptLimiter;
    vi.spyOn(emails, 'take').mockRejectedValueOnce(new DomainError('StoreUnavailable'));
    const verify = vi.spyOn(deps.hasher, 'verify');
    expect(await outcome(logIn(deps, { body: bodyOf({ email: 'alice@example.com', password: PASSWORD }), client: from('a') }))).toBe('StoreUnavailable');
    expect(verify).not.toHaveBeenCalled();
    // The address attempt taken before the e-mail's failed was given back: address limit 1 still has room.
    expect(await outcome(logIn(deps, { body: bodyOf({ email: 'alice@example.com', password: PASSWORD }), client: from('a') }))).toBe('ok');
  });

  it('still answers a correct login when the limiter cannot forget the count afterwards', async () => {
    const { deps } = await setup({ perEmail: 5, perAddress: 5 });
    vi.spyOn(deps.loginLimits.failuresPerEmail as AttemptLimiter, 'reset').mockRejectedValueOnce(new DomainError('StoreUnavailable'));
    vi.spyOn(deps.loginLimits.failuresPerAddress as AttemptLimiter, 'giveBack').mockRejectedValueOnce(new DomainError('StoreUnavailable'));
    expect(await outcome(logIn(deps, { body: bodyOf({ email: 'alice@example.com', password: PASSWORD }), client: from('a') }))).toBe('ok');
  });

  it('applies no address limit without a client address, and no limit at all without limiters', async () => {
    const { deps } = await setup({ perAddress: 1 });
    for (let i = 0; i < 20; i++) expect(await outcome(logIn(deps, { body: bodyOf({ email: 'alice@example.com', password: 'wrong' }) }))).toBe('InvalidCredentials');
    const unlimited = await setup();
    for (let i = 0; i < 20; i++) expect(await outcome(logIn(unlimited.deps, { body: bodyOf({ email: 'alice@example.com', password: 'wrong' }), client: from('a') }))).toBe('InvalidCredentials');
  });
});

describe('signUp limits', () => {
  it('allows max signups per address per window, 409s included, then refuses with TooManyAttempts', async () => {
    const { deps, clock } = await setup({ signups: 3 });
    const signup = (email: string, address = '203.0.113.9') =>
      outcome(signUp(deps, { body: bodyOf({ email, name: 'N', password: PASSWORD }), client: from(address) }));
    expect(await signup('one@example.com')).toBe('ok');
    expect(await signup('alice@example.com')).toBe('EmailAlreadyInUse');
    expect(await signup('two@example.com')).toBe('ok');
    expect(await signup('three@example.com')).toBe('TooManyAttempts 3600s');
    expect(await signup('three@example.com', '198.51.100.1')).toBe('ok');
    clock.advance(3_600_000);
    expect(await signup('four@example.com')).toBe('ok');
  });

  it('fails closed when the limiter cannot count: StoreUnavailable, nothing hashed or stored', async () => {
    const { deps } = await setup({ signups: 5 });
    vi.spyOn(deps.signupLimits.perAddress as AttemptLimiter, 'take').mockRejectedValueOnce(new DomainError('StoreUnavailable'));
    const hash = vi.spyOn(deps.hasher, 'hash');
    expect(await outcome(signUp(deps, { body: bodyOf({ email: 'c@example.com', name: 'C', password: PASSWORD }), client: from('a') }))).toBe('StoreUnavailable');
    expect(hash).not.toHaveBeenCalled();
    expect(await deps.users.findByEmail('c@example.com')).toBeNull();
  });

  it('counts neither invalid bodies nor store failures', async () => {
    const { deps } = await setup({ signups: 1 });
    for (let i = 0; i < 3; i++) {
      expect(await outcome(signUp(deps, { body: bodyOf({ email: 'bad', name: '', password: '' }), client: from('a') }))).toBe('ValidationFailed');
    }
    vi.spyOn(deps.users, 'insert').mockRejectedValueOnce(new DomainError('StoreUnavailable'));
    expect(await outcome(signUp(deps, { body: bodyOf({ email: 'c@example.com', name: 'C', password: PASSWORD }), client: from('a') }))).toBe('StoreUnavailable');
    expect(await outcome(signUp(deps, { body: bodyOf({ email: 'c@example.com', name: 'C', password: PASSWORD }), client: from('a') }))).toBe('ok');
  });
});
