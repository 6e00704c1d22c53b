import type { PasswordHasher, TokenService } from '../accounts/ports.js';
import { TOKEN_LIFETIME_MS } from '../accounts/session.js';
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

/** The fake token service, which can also make the tokens issued before tokens named sessions. */
export interface FakeTokenService extends TokenService {
  /** A token of `userId` without a session (`sid`), issued at `issuedAt`, as tokens were before sessions. */
  issueWithoutSession(userId: string, issuedAt: number): string;
}

/**
 * A token service whose tokens are readable text, `token:<user>:<session>:<issued>:<expires>`
 * (`token:<user>::<issued>:<expires>` without a session); anything else fails verification. With
 * a clock, a token past its expiry fails too.
 */
export function fakeTokenService(clock?: Clock): FakeTokenService {
  const format = (userId: string, sessionId: string, issuedAt: number, expiresAt: number) =>
    `token:${userId}:${sessionId}:${issuedAt}:${expiresAt}`;
  return {
    async issue({ userId, sessionId, issuedAt, expiresAt }) {
      return format(userId, sessionId, issuedAt, expiresAt);
    },
    issueWithoutSession: (userId, issuedAt) => format(userId, '', issuedAt, issuedAt + TOKEN_LIFETIME_MS),
    async verify(token) {
      const match = /^token:([^:]+):([^:]*):(\d+):(\d+)$/.exec(token);
      if (!match) return null;
      const [, userId = '', sessionId = '', issuedAt, expiresAt] = match;
      if (clock && Number(expiresAt) <= clock.now()) return null;
      return { userId, sessionId: sessionId === '' ? null : sessionId, issuedAt: Number(issuedAt) };
    },
  };
}
