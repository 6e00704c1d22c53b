import type { NewMessage } from '../mail/message.js';
import type { Outbox } from '../mail/ports.js';
import { giveBackAttempts, takeAttempts, type LimitedKey } from './attempt-limiter.js';
import { newLinkToken } from './link-tokens.js';
import type { User } from './user.js';

/** An account as a message to it needs it: its id and its address. */
type Addressee = Pick<User, 'id' | 'email'>;

/** A password reset link to `email`, with a new token, asked for `now`: whether an account has the address is delivery's to settle. */
export function passwordReset(email: string, now: number): NewMessage {
  return { kind: 'password-reset', to: email, token: newLinkToken(), requestedAt: now };
}

/** A verification link to the account's address, with a new token, asked for `now`. */
export function emailVerification(user: Addressee, now: number): NewMessage {
  return { kind: 'email-verification', to: user.email, userId: user.id, token: newLinkToken(), requestedAt: now };
}

/** The notice that the account's password changed, to its address. */
export function passwordChangedNotice(user: Addressee, now: number): NewMessage {
  return { kind: 'password-changed', to: user.email, userId: user.id, requestedAt: now };
}

/** The notice to the address the account left (`oldEmail`) that it moved to another, never saying which: the new one is unproved. */
export function emailChangedNotice(user: Pick<User, 'id'>, oldEmail: string, now: number): NewMessage {
  return { kind: 'email-changed', to: oldEmail, userId: user.id, requestedAt: now };
}

/**
 * Accepts the messages `write` makes for delivery when mail is on (an outbox); when it is off,
 * makes none, so no token is drawn for a mail that is never sent. Resolves once every message is
 * stored, so a message of a request that answered is delivered; a store failure is the request's
 * own.
 */
export async function enqueue(outbox: Outbox | undefined, write: () => readonly NewMessage[]): Promise<void> {
  if (outbox) await Promise.all(write().map((message) => outbox.add(message)));
}

/**
 * Accepts `message` for delivery as one attempt of each of `limits` (`takeAttempts`: past a limit,
 * `TooManyAttempts` and nothing is sent). A message the store fails to accept is not counted.
 */
export async function enqueueLimited(outbox: Outbox, limits: readonly (LimitedKey | undefined)[], message: NewMessage): Promise<void> {
  const taken = await takeAttempts(limits);
  try {
    await outbox.add(message);
  } catch (error) {
    await giveBackAttempts(taken);
    throw error;
  }
}
