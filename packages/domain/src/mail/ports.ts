import type { MessageKind, NewMessage, OutboxMessage } from './message.js';

/**
 * Where messages wait until they are delivered, shared by every process that delivers them.
 * Accepting a message is durable once `add` resolves: a message added is delivered across mail
 * server outages, crashes and restarts, by whichever process claims it. One process holds a
 * message at a time (a lease until a time it chose); a lease that runs out, because its process
 * died, lets another claim the message. A delivered message is removed.
 *
 * Every implementation means the same (`describeOutboxContract` in `@inkwell/domain/testing`).
 */
export interface Outbox {
  /** Stores a message, due at once (`nextAttemptAt` = `requestedAt`), with no attempts; answers it with its new id. */
  add(message: NewMessage): Promise<OutboxMessage>;
  /**
   * Leases to `holder`, until `leaseUntil`, up to `max` messages that are due at `now` and held by
   * nobody (never leased, or their lease ended by `now`), the earliest due first, in one atomic
   * step per message: two holders claiming at once never both get one message.
   */
  claim(holder: string, now: number, leaseUntil: number, max: number): Promise<OutboxMessage[]>;
  /** Removes a message `holder` holds (delivered, or dropped); nothing when the lease went to another holder meanwhile. */
  remove(id: string, holder: string): Promise<void>;
  /**
   * Releases a message `holder` holds after a failed attempt: one more attempt counted, due again
   * at `nextAttemptAt`; nothing when the lease went to another holder meanwhile.
   */
  retryLater(id: string, holder: string, nextAttemptAt: number): Promise<void>;
}

/** One mail, as the mail adapter writes it: the message, and the facts its words need. */
export interface Mail {
  /** The message's id: the same on every attempt, so a mail sent twice carries one `Message-ID`. */
  readonly messageId: string;
  readonly kind: MessageKind;
  readonly to: string;
  /** The account's name, for the greeting. */
  readonly name: string;
  /** The token the link carries, for the kinds that have a link. */
  readonly token?: string;
  /** When the link stops working, for the kinds that have a link. */
  readonly linkExpiresAt?: number;
  /** For `email-changed`: the address the account moved to. */
  readonly newEmail?: string;
}

/**
 * Hands mail to a mail server. Resolves once the server accepted the mail; rejects when it did
 * not (unreachable, refused), and the message is then tried again later.
 */
export interface MailSender {
  send(mail: Mail): Promise<void>;
}
