import type { PasswordHasher, TokenService } from '../accounts/ports.js';
import type { Clock } from '../shared/clock.js';

/** A clock that moves only when told to. */
export interface ManualClock extends Clock {
  advance(ms: number): void;
  set(ms: number): void;
}

/** A clock for tests, starting at `start` (default 2026-01-01T00:00:00Z). */
export function manualClock(start = Date.UTC(2026, 0, 1)): ManualClock {
  let current = start;
  return {
    now: () => current,
    advance: (ms) => {
      current += ms;
    },
    set: (ms) => {
      current = ms;
    },
  };
}

/** A hasher with no work factor, for tests where hashing speed is not the point. Counts its calls. */
export function fakePasswordHasher(): PasswordHasher & { readonly calls: { hash: number; verify: number } } {
  const calls = { hash: 0, verify: 0 };
  return {
    calls,
    dummyHash: 'fake-hash:\u0000matches-nothing',
    async hash(password) {
      calls.hash++;
      return `fake-hash:${password}`;
    },
    async verify(password, passwordHash) {
      calls.verify++;
      return passwordHash === `fake-hash:${password}`;
    },
  };
}

/** A token service whose tokens are `token:<userId>`; anything else fails verification. */
export function fakeTokenService(): TokenService {
  return {
    async issue(userId) {
      return `token:${userId}`;
    },
    async verify(token) {
      return token.startsWith('token:') && token.length > 'token:'.length ? token.slice('token:'.length) : null;
    },
  };
}
