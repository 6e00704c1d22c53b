// Real bcrypt at cost 12 costs ~300 ms per hash or verify on one core, so this file keeps the
// number of cost-12 operations small and shares one hash between tests; the queue tests use a
// lower cost, since only the pool's bookkeeping is under test there.
import { createInMemoryUserRepository, isDomainError, signUp } from '@inkwell/domain';
import { fakeTokenService, manualClock } from '@inkwell/domain/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BCRYPT_COST, createBcryptPasswordHasher, type PooledPasswordHasher } from './bcrypt-password-hasher.js';

const COST_12_BCRYPT = /^\$2[aby]\$12\$[./A-Za-z0-9]{53}$/;
const PASSWORD = 'correct horse battery';

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] as number;
}

/**
 * What `run` costs in CPU time of this process, its hashing threads included, in milliseconds:
 * the work done, which other processes competing for the cores do not change as they change the
 * time on the clock.
 */
async function cpuTimed<T>(run: () => Promise<T>): Promise<{ ms: number; result: T }> {
  const start = process.cpuUsage();
  const result = await run();
  const { user, system } = process.cpuUsage(start);
  return { ms: (user + system) / 1000, result };
}

/** How a promise settled, for asserting on a batch of jobs at once. */
async function outcome<T>(promise: Promise<T>): Promise<{ value: T } | { error: unknown }> {
  try {
    return { value: await promise };
  } catch (error) {
    return { error };
  }
}

describe('createBcryptPasswordHasher (worker-thread pool)', { timeout: 30_000 }, () => {
  const hasher = createBcryptPasswordHasher({ threads: 2, queueMax: 8 });
  let realHash = '';

  beforeAll(async () => {
    realHash = await hasher.hash(PASSWORD); // 1 hash, shared below
  }, 30_000);
  afterAll(() => hasher.close());

  it('uses the spec work factor of 12 by default', () => {
    expect(BCRYPT_COST).toBe(12);
  });

  it('hashes to a 60-character $2…$12$ bcrypt hash that does not contain the password', () => {
    expect(realHash).toHaveLength(60);
    expect(realHash).toMatch(COST_12_BCRYPT);
    expect(realHash).not.toContain(PASSWORD);
  });

  it('verifies the right password as true and a wrong one as false', async () => {
    const [right, wrong] = await Promise.all([hasher.verify(PASSWORD, realHash), hasher.verify(`${PASSWORD} `, realHash)]);
    expect(right).toBe(true);
    expect(wrong).toBe(false);
  });

  it('has a cost-12 dummy hash that a password does not match', async () => {
    expect(hasher.dummyHash).toHaveLength(60);
    expect(hasher.dummyHash).toMatch(COST_12_BCRYPT);
    expect(await hasher.verify('anything', hasher.dummyHash)).toBe(false);
  });

  it('stores a verifiable cost-12 hash when the real signUp use case runs with it', async () => {
    const users = createInMemoryUserRepository();
    const session = await signUp(
      { users, hasher, tokens: fakeTokenService(), clock: manualClock() },
      { body: async () => ({ email: 'alice@example.com', name: 'Alice', password: PASSWORD }) },
    );
    const stored = await users.findById(session.user.id);
    expect(stored?.passwordHash).toMatch(COST_12_BCRYPT);
    expect(stored?.passwordHash).not.toBe(realHash); // a fresh salt for every hash
    expect(await hasher.verify(PASSWORD, stored?.passwordHash ?? '')).toBe(true);
  });

  it('costs the same to check a wrong password against a real hash as against the dummy hash (within 25%)', async () => {
    const wrong: number[] = [];
    const dummy: number[] = [];
    // Interleaved, so whatever else this process does weighs on both series alike.
    for (let run = 0; run < 3; run++) {
      const againstReal = await cpuTimed(() => hasher.verify('wrong password', realHash));
      const againstDummy = await cpuTimed(() => hasher.verify('wrong password', hasher.dummyHash));
      expect(againstReal.result).toBe(false);
      expect(againstDummy.result).toBe(false);
      wrong.push(againstReal.ms);
      dummy.push(againstDummy.ms);
    }
    const [real, fake] = [median(wrong), median(dummy)];
    // A real cost-12 check takes tens of milliseconds at the very least; an instant `false` would mean no work was done.
    expect(fake).toBeGreaterThan(20);
    expect(Math.max(real, fake) / Math.min(real, fake)).toBeLessThanOrEqual(1.25);
  });
});

describe('another work factor (BCRYPT_COST)', () => {
  it('hashes at that cost, with a dummy hash of that cost that no password matches', async () => {
    const hasher = createBcryptPasswordHasher({ threads: 1, queueMax: 4, cost: 6 });
    try {
      const hashed = await hasher.hash(PASSWORD);
      expect(hashed).toMatch(/^\$2b\$06\$[./A-Za-z0-9]{53}$/);
      expect(hasher.dummyHash).toMatch(/^\$2b\$06\$[./A-Za-z0-9]{53}$/);
      expect(await hasher.verify(PASSWORD, hashed)).toBe(true);
      expect(await hasher.verify(PASSWORD, hasher.dummyHash)).toBe(false);
      // A new one for every pool: nothing about it is kept anywhere.
      const other = createBcryptPasswordHasher({ threads: 1, queueMax: 0, cost: 6 });
      expect(other.dummyHash).not.toBe(hasher.dummyHash);
      await other.close();
    } finally {
      await hasher.close();
    }
  });

  it('refuses a cost outside 4 to 14 before starting a thread', () => {
    for (const cost of [3, 15, 12.5, Number.NaN]) expect(() => createBcryptPasswordHasher({ threads: 1, queueMax: 0, cost })).toThrow(RangeError);
  });
});

describe('the bounded queue', { timeout: 30_000 }, () => {
  const pools: PooledPasswordHasher[] = [];
  const pool = (threads: number, queueMax: number) => {
    const created = createBcryptPasswordHasher({ threads, queueMax, cost: 8 });
    pools.push(created);
    return created;
  };
  afterAll(() => Promise.all(pools.map((p) => p.close())));

  it('runs one job per thread, queues up to queueMax, and refuses the next with ServerBusy and a retry hint', async () => {
    const hasher = pool(1, 2);
    const hash = await hasher.hash('password'); // warms the thread up
    const jobs = Array.from({ length: 5 }, (_, i) => outcome(hasher.verify(i === 0 ? 'password' : 'wrong', hash)));
    const results = await Promise.all(jobs);

    expect(results.slice(0, 3)).toEqual([{ value: true }, { value: false }, { value: false }]);
    for (const refused of results.slice(3)) {
      expect(refused).toEqual({ error: expect.any(Error) });
      const error = (refused as { error: unknown }).error;
      expect(isDomainError(error, 'ServerBusy')).toBe(true);
      expect(error).toMatchObject({ code: 'ServerBusy', retryAfterSeconds: 1 });
    }
  });

  it('refuses hash and verify alike, and takes jobs again once the queue drains', async () => {
    const hasher = pool(1, 0);
    const running = hasher.hash('password');
    await expect(hasher.hash('other')).rejects.toSatisfy((error) => isDomainError(error, 'ServerBusy'));
    await expect(hasher.verify('other', hasher.dummyHash)).rejects.toSatisfy((error) => isDomainError(error, 'ServerBusy'));
    const hash = await running;
    expect(await hasher.verify('password', hash)).toBe(true);
  });

  it('spreads concurrent jobs over every thread', async () => {
    const hasher = pool(2, 4);
    await hasher.hash('warm-up');
    const hashes = await Promise.all(Array.from({ length: 6 }, (_, i) => hasher.hash(`password-${i}`)));
    expect(new Set(hashes).size).toBe(6);
    expect(await Promise.all(hashes.map((hash, i) => hasher.verify(`password-${i}`, hash)))).toEqual(Array(6).fill(true));
  });

  it('refuses jobs with ServerBusy once closed, and closing twice is harmless', async () => {
    const hasher = pool(1, 1);
    expect(await hasher.verify('x', await hasher.hash('x'))).toBe(true);
    await hasher.close();
    await hasher.close();
    await expect(hasher.hash('after close')).rejects.toSatisfy((error) => isDomainError(error, 'ServerBusy'));
  });
});
