import type { AccountDeps } from '../accounts/account-deps.js';
import { deliverMessage, type DeliveryOutcome } from '../accounts/deliver-message.js';
import type { OutboxMessage } from '../mail/message.js';
import type { Mail, MailSender } from '../mail/ports.js';

/** A mail sender that keeps what it is handed, and refuses while told to (a mail server that is down). */
export interface RecordingMailSender extends MailSender {
  /** Every mail accepted so far, in order. */
  readonly sent: Mail[];
  /** While set, every send rejects with it. */
  refusing: Error | null;
}

/**
 * A `MailSender` for tests: records each mail it accepts; rejects every send while `refusing` is
 * set. It asks `commit` (with no time to hold) before it records, as a sender asks before its
 * point of no return, and records nothing when that rejects.
 */
export function recordingMailSender(): RecordingMailSender {
  const sender: RecordingMailSender = {
    sent: [],
    refusing: null,
    async send(mail, options) {
      if (sender.refusing) throw sender.refusing;
      options?.signal?.throwIfAborted();
      await options?.commit?.(0);
      options?.signal?.throwIfAborted();
      sender.sent.push(mail);
    },
  };
  return sender;
}

/** One message a delivery round handled, and what became of it. */
export interface Delivered {
  readonly message: OutboxMessage;
  readonly outcome: DeliveryOutcome;
}

/**
 * One delivery round, as a delivering process runs it, at the deps' clock's time: claims every
 * message due (for `holder`, with a 25-second lease) and hands each to `deliverMessage`, one after
 * another. Answers what became of each.
 */
export async function deliverDueMessages(
  deps: Pick<AccountDeps, 'users' | 'clock' | 'outbox' | 'mailer' | 'mailRules' | 'mailLimits'>,
  holder = 'test-delivery',
): Promise<Delivered[]> {
  if (!deps.outbox) throw new Error('deliverDueMessages: mail is off (no outbox)');
  const claimed = await deps.outbox.claim(holder, deps.clock.now(), 25_000, 1_000);
  const delivered: Delivered[] = [];
  for (const message of claimed) delivered.push({ message, outcome: await deliverMessage(deps, { message, holder }) });
  return delivered;
}
