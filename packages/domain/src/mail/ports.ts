import type { MessageKind, NewMessage, OutboxMessage } from './message.js';

/**
 * Where messages wait until they are delivered, shared by every process that delivers them.
 * Accepting a message is durable once `add` resolves: a message added is delivered across mail
 * server outages, crashes and restarts, by whichever process claims it. One process holds a
 * message at a time, under a lease it renews while it works on the message; a lease that runs out,
 * because its process died, lets another claim the message. A delivered message is removed.
 *
 * Lease times are the outbox's own, counted from the moment it grants or renews a lease: the
 * caller's `now` for an outbox in the caller's process, and the database's clock for one that
 * processes share, so that a slow round trip never shortens a lease and processes whose clocks
 * differ agree on when it ends.
 *
 * Every implementation means the same (`describeOutboxContract` in `@inkwell/domain/testing`).
 */
export interface Outbox {
  /** Stores a message, due at once (`nextAttemptAt` = `requestedAt`), with no attempts; answers it with its new id. */
  add(message: NewMessage): Promise<OutboxMessage>;
  /**
   * Leases to `holder`, for `leaseMs` from the moment it is granted, up to `max` messages that are
   * due at `now` (their `nextAttemptAt`) and held by nobody (never leased, released, or their lease
   * ended), the earliest due first, in one atomic step per message: two holders claiming at once
   * never both get one message.
   */
  claim(holder: string, now: number, leaseMs: number, max: number): Promise<OutboxMessage[]>;
  /**
   * Extends `holder`'s lease of a message to `leaseMs` from the moment it is renewed, while
   * `holder` still holds it: nobody claimed it since, even if the lease ran out meanwhile. Never
   * moves the lease's end earlier: a short renewal that reaches the store after a longer one (the
   * long lease a send asks for at its point of no return) leaves the longer. Answers whether
   * `holder` holds it; false means the message is another holder's, or gone.
   */
  renew(id: string, holder: string, now: number, leaseMs: number): Promise<boolean>;
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
}

/** How a send may be cut short, and where it asks before its point of no return. */
export interface SendOptions {
  /**
   * Aborts the send: the sender stops talking to the mail server and rejects. Aborted before the
   * end of the mail was sent, the server has nothing; after it, the server may still accept it.
   */
  readonly signal?: AbortSignal;
  /**
   * Asked right before the sender's point of no return (SMTP: the final "." of DATA, past which
   * the server may accept the mail), with the most the send may still take once it resolves
   * (`holdMs`: the wait for the server's answer), which the sender keeps to from the end of the
   * mail: past it the send fails. Whoever answers makes sure nobody else sends the mail for that
   * long after it resolves. The end of the mail goes only once this resolves; when it rejects, the sender aborts
   * without sending it, so the server has nothing, and the send rejects. A sender whose sending
   * has no such point (it writes the mail where it is kept at once) need not ask.
   */
  readonly commit?: (holdMs: number) => Promise<void>;
}

/**
 * Hands mail to a mail server. Resolves once the server accepted the mail; rejects when it did
 * not (unreachable, refused, aborted), and the message is then tried again later.
 */
export interface MailSender {
  send(mail: Mail, options?: SendOptions): Promise<void>;
}
