/**
 * What a message is about; its words are the mail adapter's, chosen by kind when it is sent:
 * - `password-reset`: a link that sets a new password (`POST /auth/password-reset/confirm`);
 * - `email-verification`: a link that proves the address (`POST /auth/verify-email`);
 * - `password-changed`: a notice that the password changed, and what to do if the reader did not;
 * - `email-changed`: a notice to the old address that the account moved to another (never which:
 *   the new address is unproved, and naming it would let anyone write an address of their choosing
 *   into mail a stranger receives).
 */
export const MESSAGE_KINDS = ['password-reset', 'email-verification', 'password-changed', 'email-changed'] as const;
export type MessageKind = (typeof MESSAGE_KINDS)[number];

/** A message to accept for delivery: who it goes to and why, never anything a client sent but the address. */
export interface NewMessage {
  readonly kind: MessageKind;
  /** The address it goes to, trimmed and lower-cased. */
  readonly to: string;
  /**
   * The account it concerns, where the request knew it: every kind but a reset request, which
   * names only an address (whether an account has it is settled when the message is delivered).
   */
  readonly userId?: string;
  /**
   * The secret its link carries (`password-reset`, `email-verification`): 32 random bytes,
   * base64url. An outbox that stores messages keeps it sealed (encrypted), never in clear, and
   * hands it back with the message it claims.
   */
  readonly token?: string;
  /** When it was asked for, in milliseconds: orders requests for one account, and starts a link's validity. */
  readonly requestedAt: number;
}

/** A message in an outbox: as accepted, with its id and its delivery so far. */
export interface OutboxMessage extends NewMessage {
  /** Assigned by the outbox; unique, and the same on every attempt (the mail's `Message-ID` is made from it). */
  readonly id: string;
  /** Failed attempts so far. */
  readonly attempts: number;
  /** When it is next due, in milliseconds. */
  readonly nextAttemptAt: number;
}
