import { DELIVERY_WINDOW_MS, nextAttemptAfterFailure } from '../mail/delivery-schedule.js';
import type { OutboxMessage } from '../mail/message.js';
import type { Mail } from '../mail/ports.js';
import { DomainError } from '../shared/errors.js';
import type { AccountDeps } from './account-deps.js';
import { hashLinkToken } from './link-tokens.js';
import { DEFAULT_MAIL_RULES } from './mail-rules.js';
import type { LinkRecord } from './ports.js';
import type { UseCaseRequest } from './use-case-request.js';
import type { User } from './user.js';

/** What `deliverMessage` reads: the message, as claimed, and the holder it was claimed under. */
export type DeliverMessageRequest = Pick<UseCaseRequest, 'message' | 'holder'>;

/**
 * Why a message was dropped without being sent:
 * - `no-account`: no account has the address a reset was asked for, or the account a message
 *   concerns is gone;
 * - `address-changed`: the account no longer has the address a verification was sent to;
 * - `already-verified`: the address a verification was sent to is verified already;
 * - `superseded`: the link was not recorded: one asked for later is, or (for a reset) the password
 *   changed since it was asked for, or the account is being deleted;
 * - `link-expired`: the link would no longer work by now;
 * - `malformed`: the message lacks what its kind needs (a token, an account).
 */
export const DROP_REASONS = ['no-account', 'address-changed', 'already-verified', 'superseded', 'link-expired', 'malformed'] as const;
export type DropReason = (typeof DROP_REASONS)[number];

/**
 * What became of a message `deliverMessage` was handed, for the delivering process to log (never
 * with the message's token):
 * - `sent`: the mail server accepted the mail, and the message is removed;
 * - `dropped`: there was nothing to send (`reason`), and the message is removed;
 * - `retried`: the mail server did not accept it (`error`); the message is due again at `nextAttemptAt`;
 * - `expired`: it was not delivered within 24 hours of being asked for, and is removed: an error
 *   worth logging (`error` is the last attempt's failure, absent when it was not tried again).
 */
export type DeliveryOutcome =
  | { readonly status: 'sent' }
  | { readonly status: 'dropped'; readonly reason: DropReason }
  | { readonly status: 'retried'; readonly nextAttemptAt: number; readonly error: unknown }
  | { readonly status: 'expired'; readonly error?: unknown };

type DeliverMessageDeps = Pick<AccountDeps, 'users' | 'clock' | 'outbox' | 'mailer' | 'mailRules'>;

/**
 * Delivers one message its process holds (docs/api.md, Mail): settles what the request left to
 * delivery, sends the mail, and moves the message on in the outbox. A store failure throws and
 * leaves the message as it is: its lease runs out and it is claimed again.
 *
 * - `password-reset`: the account with the address, if any, records the link (its token's hash),
 *   unless a reset asked for later is recorded or the password changed since; then the mail goes.
 * - `email-verification`: the account the message names, while the address is still its own and
 *   unverified, records the link (a later one wins); then the mail goes.
 * - `password-changed`, `email-changed`: notices to the address, while the account exists.
 *
 * A link is recorded before its mail goes, so a link in a mail always works (until it expires or
 * is superseded); a message tried again records the same link again. The mail server's refusal is
 * retried on the delivery schedule (`nextAttemptAfterFailure`) until 24 hours after the request.
 */
export async function deliverMessage(deps: DeliverMessageDeps, request: DeliverMessageRequest): Promise<DeliveryOutcome> {
  const { outbox, mailer } = deps;
  if (!outbox || !mailer) throw new DomainError('NotOffered');
  const { message, holder } = request;

  if (deps.clock.now() >= message.requestedAt + DELIVERY_WINDOW_MS) {
    await outbox.remove(message.id, holder);
    return { status: 'expired' };
  }
  const mail = await mailFor(deps, message);
  if (typeof mail === 'string') {
    await outbox.remove(message.id, holder);
    return { status: 'dropped', reason: mail };
  }
  try {
    await mailer.send(mail);
  } catch (error) {
    const nextAttemptAt = nextAttemptAfterFailure(message, deps.clock.now());
    if (nextAttemptAt === null) {
      await outbox.remove(message.id, holder);
      return { status: 'expired', error };
    }
    await outbox.retryLater(message.id, holder, nextAttemptAt);
    return { status: 'retried', nextAttemptAt, error };
  }
  await outbox.remove(message.id, holder);
  return { status: 'sent' };
}

/** The mail `message` becomes, its link recorded with the account first; or why nothing is sent. */
async function mailFor(deps: DeliverMessageDeps, message: OutboxMessage): Promise<Mail | DropReason> {
  const rules = deps.mailRules ?? DEFAULT_MAIL_RULES;
  const now = deps.clock.now();

  switch (message.kind) {
    case 'password-reset': {
      const link = await linkOf(message, rules.passwordResetTtlMs, now);
      if (typeof link === 'string') return link;
      const user = await deps.users.findByEmail(message.to);
      if (!user) return 'no-account';
      const recorded = await deps.users.recordPasswordReset(user.id, link.record, now);
      return recorded ? { ...link.mail, name: recorded.name } : 'superseded';
    }
    case 'email-verification': {
      const link = await linkOf(message, rules.emailVerificationTtlMs, now);
      if (typeof link === 'string') return link;
      const user = await accountOf(deps, message);
      if (typeof user === 'string') return user;
      if (user.email !== message.to) return 'address-changed';
      if (user.emailVerified) return 'already-verified';
      const recorded = await deps.users.recordEmailVerification(user.id, link.record, now);
      return recorded ? { ...link.mail, name: recorded.name } : 'superseded';
    }
    case 'password-changed':
    case 'email-changed': {
      const user = await accountOf(deps, message);
      if (typeof user === 'string') return user;
      const notice: Mail = { messageId: message.id, kind: message.kind, to: message.to, name: user.name };
      return message.newEmail === undefined ? notice : { ...notice, newEmail: message.newEmail };
    }
  }
}

/** The account a message concerns (`userId`), or why there is none. */
async function accountOf(deps: Pick<AccountDeps, 'users'>, message: OutboxMessage): Promise<User | DropReason> {
  if (message.userId === undefined) return 'malformed';
  return (await deps.users.findById(message.userId)) ?? 'no-account';
}

/** A link message's record (its token's hash, valid `ttlMs` from the request) and its mail but the greeting; or why it cannot go. */
async function linkOf(
  message: OutboxMessage,
  ttlMs: number,
  now: number,
): Promise<{ record: LinkRecord; mail: Omit<Mail, 'name'> } | DropReason> {
  const { token } = message;
  if (token === undefined) return 'malformed';
  const expiresAt = message.requestedAt + ttlMs;
  if (now >= expiresAt) return 'link-expired';
  return {
    record: { tokenHash: await hashLinkToken(token), email: message.to, requestedAt: message.requestedAt, expiresAt },
    mail: { messageId: message.id, kind: message.kind, to: message.to, token, linkExpiresAt: expiresAt },
  };
}
