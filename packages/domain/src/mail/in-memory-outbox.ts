import type { NewMessage, OutboxMessage } from './message.js';
import type { Outbox } from './ports.js';

interface Held {
  message: OutboxMessage;
  holder: string | null;
  leaseUntil: number;
}

/**
 * An `Outbox` in process memory, for the memory store and for tests: what it holds is lost when
 * the process stops, as everything else of the memory store is. Every method is one synchronous
 * step, so concurrent claims never share a message, and a lease is counted from the `now` of the
 * call that grants or renews it, which is the moment it is granted.
 */
export function createInMemoryOutbox(): Outbox {
  const messages = new Map<string, Held>();
  const held = (id: string, holder: string) => {
    const entry = messages.get(id);
    return entry && entry.holder === holder ? entry : undefined;
  };

  return {
    async add(message: NewMessage) {
      const stored: OutboxMessage = Object.freeze({
        kind: message.kind,
        to: message.to,
        ...(message.userId === undefined ? {} : { userId: message.userId }),
        ...(message.token === undefined ? {} : { token: message.token }),
        requestedAt: message.requestedAt,
        id: randomId(),
        attempts: 0,
        nextAttemptAt: message.requestedAt,
      });
      messages.set(stored.id, { message: stored, holder: null, leaseUntil: -Infinity });
      return stored;
    },
    async claim(holder, now, leaseMs, max) {
      const due = [...messages.values()]
        .filter((entry) => entry.message.nextAttemptAt <= now && (entry.holder === null || entry.leaseUntil <= now))
        .sort((a, b) => a.message.nextAttemptAt - b.message.nextAttemptAt)
        .slice(0, Math.max(0, max));
      for (const entry of due) {
        entry.holder = holder;
        entry.leaseUntil = now + leaseMs;
      }
      return due.map((entry) => entry.message);
    },
    async renew(id, holder, now, leaseMs) {
      const entry = held(id, holder);
      if (!entry) return false;
      entry.leaseUntil = Math.max(entry.leaseUntil, now + leaseMs);
      return true;
    },
    async remove(id, holder) {
      if (held(id, holder)) messages.delete(id);
    },
    async retryLater(id, holder, nextAttemptAt) {
      const entry = held(id, holder);
      if (!entry) return;
      entry.message = Object.freeze({ ...entry.message, attempts: entry.message.attempts + 1, nextAttemptAt });
      entry.holder = null;
      entry.leaseUntil = -Infinity;
    },
  };
}

/** 128 random bits as hex, from the platform's cryptographic generator: unique across processes and restarts. */
function randomId(): string {
  return Array.from(crypto.getRandomValues(new Uint8Array(16)), (byte) => byte.toString(16).padStart(2, '0')).join('');
}
