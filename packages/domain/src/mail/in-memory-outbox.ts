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
 * step, so concurrent claims never share a message.
 */
export function createInMemoryOutbox(): Outbox {
  const messages = new Map<string, Held>();
  const held = (id: string, holder: string, now = -Infinity) => {
    const entry = messages.get(id);
    return entry && entry.holder === holder && entry.leaseUntil > now ? entry : undefined;
  };

  return {
    async add(message: NewMessage) {
      const stored: OutboxMessage = Object.freeze({ ...message, id: randomId(), attempts: 0, nextAttemptAt: message.requestedAt });
      messages.set(stored.id, { message: stored, holder: null, leaseUntil: -Infinity });
      return stored;
    },
    async claim(holder, now, leaseUntil, max) {
      const due = [...messages.values()]
        .filter((entry) => entry.message.nextAttemptAt <= now && (entry.holder === null || entry.leaseUntil <= now))
        .sort((a, b) => a.message.nextAttemptAt - b.message.nextAttemptAt)
        .slice(0, Math.max(0, max));
      for (const entry of due) {
        entry.holder = holder;
        entry.leaseUntil = leaseUntil;
      }
      return due.map((entry) => entry.message);
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
