import type { Logger } from '@inkwell/adapters-http';
import { deliverMessage, type AccountDeps, type Clock, type MailLimits, type MailRules, type MailSender, type Outbox } from '@inkwell/domain';
import { createLogMailSender } from './adapters/log-mail-sender.js';
import { createSmtpMailSender } from './adapters/smtp-mail-sender.js';
import type { Config, MailConfig } from './config.js';
import { createDeliveryLoop, type DeliveryLoop, type DeliveryTiming } from './mail-delivery.js';
import type { Store } from './store.js';

/** What tests may change about mail; production passes nothing. */
export interface MailOverrides {
  /** Sends instead of the sender `MAIL_URL` names. */
  readonly mailer?: MailSender;
  /** The delivery loop's timing instead of the defaults. */
  readonly delivery?: Partial<DeliveryTiming>;
}

/** Mail, on: what the use cases get, and the loop delivering from this process. */
export interface RunningMail {
  /** The store's outbox, telling this process's loop of every message added here. */
  readonly outbox: Outbox;
  readonly mailRules: MailRules;
  /** The limits delivery counts (the recipient's budget), as the requests' use cases got them. */
  readonly mailLimits: MailLimits;
  readonly loop: DeliveryLoop;
  /** Tells mail the port the server listens on: without `APP_URL` (development), links point at it. */
  listening(port: number): void;
  /** Stops the loop (claiming nothing more, the sends in flight finished or given up), then the sender. */
  close(): Promise<void>;
}

/**
 * The base of development links (`log:` mail without `APP_URL`): the server itself, as a browser
 * on the same machine reaches it. A server listening on every interface (`HOST=0.0.0.0` or `::`)
 * is `localhost`; an IPv6 address goes in brackets.
 */
export function serverLinkBase(host: string, port: number): string {
  const name = host === '0.0.0.0' || host === '::' ? 'localhost' : host.includes(':') ? `[${host}]` : host;
  return `http://${name}:${port}`;
}

/** The sender `MAIL_URL` names: an SMTP server, or the log (whose links may follow the server's own address). */
function mailSenderFor(mail: MailConfig, logger: Logger, ownLinkBase: () => string): MailSender & { close?(): Promise<void> } {
  if (mail.transport.kind === 'log') return createLogMailSender(() => ({ from: mail.from, appUrl: mail.appUrl ?? ownLinkBase() }), logger);
  if (mail.appUrl === null) throw new Error('APP_URL is required with an SMTP server');
  return createSmtpMailSender({ from: mail.from, appUrl: mail.appUrl, transport: mail.transport });
}

/**
 * Turns mail on for this process: the sender, the rules of the links, and the delivery loop over
 * the store's outbox, started, counting each mail against its recipient's budget (`mailLimits`).
 * A message added through the returned outbox wakes the loop within `wakeJitterMs`, at a random
 * moment, rather than at the next poll.
 */
export function startMail(
  config: Pick<Config, 'mailLinks' | 'host' | 'port'> & { readonly mail: MailConfig },
  store: Pick<Store, 'outbox' | 'users'>,
  mailLimits: MailLimits,
  clock: Clock,
  logger: Logger,
  overrides: MailOverrides = {},
): RunningMail {
  // The configured port until the server says where it listens; PORT=0 is known only then, and a
  // mail written before (one left in the outbox by an earlier run) fails and is tried again.
  let port = config.port;
  const ownLinkBase = () => {
    if (port === 0) throw new Error('the server does not listen yet: development links point at its port');
    return serverLinkBase(config.host, port);
  };
  const sender: MailSender & { close?(): Promise<void> } = overrides.mailer ?? mailSenderFor(config.mail, logger, ownLinkBase);
  const mailRules: MailRules = {
    passwordResetTtlMs: config.mailLinks.passwordResetTtlSeconds * 1000,
    emailVerificationTtlMs: config.mailLinks.emailVerifyTtlSeconds * 1000,
    passwordResetLinksKept: config.mailLinks.passwordResetLinksKept,
  };
  const deps: Pick<AccountDeps, 'users' | 'clock' | 'outbox' | 'mailer' | 'mailRules' | 'mailLimits'> = {
    users: store.users,
    clock,
    outbox: store.outbox,
    mailer: sender,
    mailRules,
    mailLimits,
  };
  const loop = createDeliveryLoop({
    outbox: store.outbox,
    // The sender wrapped so that the loop learns when the server accepted the mail.
    deliver: (message, holder, lease, commit, sent) =>
      deliverMessage({ ...deps, mailer: { send: (mail, options) => sender.send(mail, options).then(sent) } }, { message, holder, lease, commit }),
    clock,
    logger,
    timing: overrides.delivery,
  });
  const outbox: Outbox = {
    add: async (message) => {
      const added = await store.outbox.add(message);
      // Woken at a random moment within a second, never inside the request that added it:
      // delivering a reset to an address with an account costs the mail's sending besides what
      // one without costs, and that work must neither delay the answer nor follow it at a time
      // a client's next requests could feel (bench/reset-timing.ts).
      loop.wakeSoon();
      return added;
    },
    claim: (...args) => store.outbox.claim(...args),
    renew: (...args) => store.outbox.renew(...args),
    remove: (...args) => store.outbox.remove(...args),
    retryLater: (...args) => store.outbox.retryLater(...args),
  };
  loop.start();
  return {
    outbox,
    mailRules,
    mailLimits,
    loop,
    listening(listeningPort) {
      port = listeningPort;
    },
    async close() {
      await loop.stop();
      await sender.close?.();
    },
  };
}
