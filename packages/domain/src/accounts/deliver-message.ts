import { DELIVERY_WINDOW_MS, nextAttemptAfterFailure } from '../mail/delivery-schedule.js';
import type { OutboxMessage } from '../mail/message.js';
import type { Mail } from '../mail/ports.js';
import { DomainError, isDomainError } from '../shared/errors.js';
import type { AccountDeps } from './account-deps.js';
import { giveBackAttempts, limitedKey, takeAttempts, type LimitedKey, type TakenAttempt } from './attempt-limiter.js';
import { hashLinkToken } from './link-tokens.js';
import { DEFAULT_MAIL_RULES } from './mail-rules.js';
import { mailboxOf } from './mailbox.js';
import type { LinkRecord } from './ports.js';
import type { UseCaseRequest } from './use-case-request.js';
import type { User } from './user.js';

/**
 * What `deliverMessage` reads: the message, as claimed, the holder it was claimed under, the
 * holder's lease of it, and how the holder makes its lease cover the rest of a send at the send's
 * point of no return.
 */
export type DeliverMessageRequest = Pick<UseCaseRequest, 'message' | 'holder' | 'lease' | 'commit'>;

/**
 * Why a message was dropped without being sent:
 * - `no-account`: no account has the address a reset was asked for, or the account a message
 *   concerns is gone;
 * - `address-changed`: the account no longer has the address a verification was sent to;
 * - `already-verified`: the address a verification was sent to is verified already;
 * - `superseded`: the link was not recorded: the password changed since a reset was asked for, the
 *   account is being deleted, or a verification asked for later is recorded;
 * - `link-expired`: the link would no longer work by now;
 * - `over-budget`: the mailbox was sent as many mails as its budget allows this hour (a link mail:
 *   as many as the budget allows less the notices' reserve);
 * - `malformed`: the message lacks what its kind needs (a token, an account).
 */
export const DROP_REASONS = ['no-account', 'address-changed', 'already-verified', 'superseded', 'link-expired', 'over-budget', 'malformed'] as const;
export type DropReason = (typeof DROP_REASONS)[number];

/**
 * What became of a message `deliverMessage` was handed, for the delivering process to log (never
 * with the message's token):
 * - `sent`: the mail server accepted the mail, and the message is removed;
 * - `dropped`: there was nothing to send (`reason`), and the message is removed;
 * - `retried`: the mail server did not accept it (`error`); the message is due again at `nextAttemptAt`;
 * - `expired`: it was not delivered within 24 hours of being asked for, and is removed: an error
 *   worth logging (`error` is the last attempt's failure, absent when it was not tried again);
 * - `abandoned`: the holder's lease could not be kept (`lease` aborted), so it stopped: the message
 *   is left as it is, for whoever holds it next (`error`: the send it cut short, if one was under way).
 */
export type DeliveryOutcome =
  | { readonly status: 'sent' }
  | { readonly status: 'dropped'; readonly reason: DropReason }
  | { readonly status: 'retried'; readonly nextAttemptAt: number; readonly error: unknown }
  | { readonly status: 'expired'; readonly error?: unknown }
  | { readonly status: 'abandoned'; readonly error?: unknown };

type DeliverMessageDeps = Pick<AccountDeps, 'users' | 'clock' | 'outbox' | 'mailer' | 'mailRules' | 'mailLimits'>;

/** A mail ready to go, and the recipient's budget it spent (given back if it does not go). */
interface Ready {
  readonly mail: Mail;
  readonly spent: readonly TakenAttempt[];
}

/**
 * Delivers one message its process holds (docs/api.md, Mail): settles what the request left to
 * delivery, counts the mail against its recipient's budget (its mailbox's, `mailboxOf`; a link
 * mail only up to the budget less the notices' reserve, `MailLimits.linkMailsPerRecipient`), sends
 * it, and moves the message on in the outbox. A store failure throws and leaves the message as it is: its lease runs out and
 * it is claimed again.
 *
 * - `password-reset`: the same work whatever the address, so that what follows a reset request
 *   does not tell whether an account has it either: the recipient's budget is counted, then one
 *   step finds the account by its address and records the link (its token's hash) beside the
 *   account's other live links (`MailRules.passwordResetLinksKept` of them, none ended by a newer
 *   one), unless the password changed since it was asked for; then the mail
 *   goes, to an account's address only. An address without an account keeps its count (its budget
 *   bounds what it can be sent should it sign up).
 * - `email-verification`: the account the message names, while the address is still its own and
 *   unverified, records the link (a later one wins); then the mail goes.
 * - `password-changed`, `email-changed`: notices to the address, while the account exists.
 *
 * A link is recorded before its mail goes, so a link in a mail always works (until it is used,
 * expires, or is voided); a message tried again records the same link again. Past the recipient's
 * budget the message is dropped (`over-budget`). The mail server's refusal is retried on the
 * delivery schedule (`nextAttemptAfterFailure`) until 24 hours after the request, and gives the
 * budget back. Once `lease` aborts, nothing more is sent, nor the outbox touched (`abandoned`).
 * The mail sender asks `commit` before its point of no return (the end of the mail), and sends
 * that end only once the holder's lease covers the whole rest of the send: so a holder alive to
 * the end never sees its mail accepted after its lease went to another.
 */
export async function deliverMessage(deps: DeliverMessageDeps, request: DeliverMessageRequest): Promise<DeliveryOutcome> {
  const { outbox, mailer } = deps;
  if (!outbox || !mailer) throw new DomainError('NotOffered');
  const { message, holder, lease, commit } = request;
  if (lease?.aborted) return { status: 'abandoned' };

  if (deps.clock.now() >= message.requestedAt + DELIVERY_WINDOW_MS) {
    await outbox.remove(message.id, holder);
    return { status: 'expired' };
  }
  const ready = await mailFor(deps, message);
  if (typeof ready === 'string') {
    await outbox.remove(message.id, holder);
    return { status: 'dropped', reason: ready };
  }
  if (lease?.aborted) {
    await giveBackAttempts(ready.spent);
    return { status: 'abandoned' };
  }
  try {
    await mailer.send(ready.mail, { ...(lease === undefined ? {} : { signal: lease }), ...(commit === undefined ? {} : { commit }) });
  } catch (error) {
    await giveBackAttempts(ready.spent);
    if (lease?.aborted) return { status: 'abandoned', error };
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

/** The mail `message` becomes, its budget spent and its link recorded with the account first; or why nothing is sent. */
async function mailFor(deps: DeliverMessageDeps, message: OutboxMessage): Promise<Ready | DropReason> {
  const rules = deps.mailRules ?? DEFAULT_MAIL_RULES;
  const now = deps.clock.now();
  // One budget per mailbox; the link mails anyone can cause spend it only up to its reserve.
  const mailbox = mailboxOf(message.to);
  const noticeBudget = [limitedKey(deps.mailLimits?.mailsPerRecipient, mailbox)];
  const linkBudget = [limitedKey(deps.mailLimits?.linkMailsPerRecipient, mailbox), ...noticeBudget];

  switch (message.kind) {
    case 'password-reset': {
      const link = await linkOf(message, rules.passwordResetTtlMs, now);
      if (typeof link === 'string') return link;
      const spent = await spend(linkBudget);
      if (spent === null) return 'over-budget';
      const found = await deps.users.recordPasswordReset(link.record, rules.passwordResetLinksKept, now);
      if (!found) return 'no-account';
      if (!found.recorded) return unspent(spent, 'superseded');
      return { mail: { ...link.mail, name: found.user.name }, spent };
    }
    case 'email-verification': {
      const link = await linkOf(message, rules.emailVerificationTtlMs, now);
      if (typeof link === 'string') return link;
      const user = await accountOf(deps, message);
      if (typeof user === 'string') return user;
      if (user.email !== message.to) return 'address-changed';
      if (user.emailVerified) return 'already-verified';
      const spent = await spend(linkBudget);
      if (spent === null) return 'over-budget';
      const recorded = await deps.users.recordEmailVerification(user.id, link.record, now);
      if (!recorded) return unspent(spent, 'superseded');
      return { mail: { ...link.mail, name: recorded.name }, spent };
    }
    case 'password-changed':
    case 'email-changed': {
      const user = await accountOf(deps, message);
      if (typeof user === 'string') return user;
      const spent = await spend(noticeBudget);
      if (spent === null) return 'over-budget';
      return { mail: { messageId: message.id, kind: message.kind, to: message.to, name: user.name }, spent };
    }
  }
}

/** Counts one mail against the recipient's budget (each of `budget`'s limits): what was taken, or null past the budget. A store failure throws. */
async function spend(budget: readonly (LimitedKey | undefined)[]): Promise<TakenAttempt[] | null> {
  try {
    return await takeAttempts(budget);
  } catch (error) {
    if (isDomainError(error, 'TooManyAttempts')) return null;
    throw error;
  }
}

/** Gives back the budget a message spent before it turned out to send nothing, and says why. */
async function unspent(spent: readonly TakenAttempt[], reason: DropReason): Promise<DropReason> {
  await giveBackAttempts(spent);
  return reason;
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
