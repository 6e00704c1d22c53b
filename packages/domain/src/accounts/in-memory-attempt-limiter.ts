import type { Clock } from '../shared/clock.js';
import type { AttemptLimiter, AttemptVerdict } from './attempt-limiter.js';

/** Keys one in-memory limiter tracks at most, unless told otherwise (a few MB at worst). */
export const DEFAULT_MAX_TRACKED_KEYS = 50_000;

/** The rule one in-memory limiter enforces. */
export interface InMemoryAttemptLimiterOptions {
  /** Attempts allowed per key in one window; 0 turns the rule off (every attempt allowed, nothing tracked). */
  readonly max: number;
  readonly windowSeconds: number;
  readonly clock: Clock;
  /** Hard cap on tracked keys; past it the oldest window is forgotten first. */
  readonly maxKeys?: number;
}

/** An in-memory limiter, with the number of keys it tracks right now (to watch its memory). */
export interface InMemoryAttemptLimiter extends AttemptLimiter {
  readonly size: number;
}

interface Window {
  /** Names this window apart from the key's earlier and later ones, for `giveBack`. */
  readonly id: string;
  count: number;
  readonly endsAt: number;
}

/**
 * An `AttemptLimiter` in process memory: a fixed window per key, opened by the key's first
 * attempt, allowing `max` attempts until it ends; an attempt given back leaves the window that
 * counted it, and only that one. Memory is bounded two ways: ended windows are
 * dropped as time passes, and at most `maxKeys` keys are tracked, the oldest window evicted
 * first, so a flood of distinct keys (addresses, e-mails) cannot grow it without limit.
 * Eviction forgets that key's count: the cap trades a little precision under a flood for
 * bounded memory.
 */
export function createInMemoryAttemptLimiter(options: InMemoryAttemptLimiterOptions): InMemoryAttemptLimiter {
  const { max, clock } = options;
  const windowMs = options.windowSeconds * 1000;
  const maxKeys = Math.max(1, options.maxKeys ?? DEFAULT_MAX_TRACKED_KEYS);
  // Insertion order is window-opening order, so the front holds the windows that end first.
  const windows = new Map<string, Window>();
  let opened = 0;

  const dropEnded = (now: number) => {
    for (const [key, window] of windows) {
      if (window.endsAt > now) return;
      windows.delete(key);
    }
  };

  return {
    get size() {
      return windows.size;
    },
    async take(key): Promise<AttemptVerdict> {
      if (max <= 0) return { allowed: true };
      const now = clock.now();
      dropEnded(now);

      const window = windows.get(key);
      if (window === undefined || window.endsAt <= now) {
        windows.delete(key);
        if (windows.size >= maxKeys) windows.delete(windows.keys().next().value as string);
        const id = String(++opened);
        windows.set(key, { id, count: 1, endsAt: now + windowMs });
        return { allowed: true, window: id };
      }
      if (window.count >= max) {
        return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil((window.endsAt - now) / 1000)) };
      }
      window.count++;
      return { allowed: true, window: window.id };
    },
    async giveBack(key, id) {
      const window = windows.get(key);
      if (window === undefined || window.id !== id) return;
      window.count--;
      if (window.count <= 0) windows.delete(key);
    },
    async reset(key) {
      windows.delete(key);
    },
  };
}
