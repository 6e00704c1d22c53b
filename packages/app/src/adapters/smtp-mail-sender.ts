import type { Mail, MailSender } from '@inkwell/domain';
import { createTransport } from 'nodemailer';
import type { SecureContextOptions } from 'node:tls';
import type { SmtpTransport } from '../config.js';
import { writeMail, type MailSite } from './mail-words.js';

/** How long each step of a send may take, in milliseconds. */
export interface SmtpTimeouts {
  /** To open the TCP connection (and the TLS handshake of smtps://). */
  readonly connect: number;
  /** For the server's greeting once connected. */
  readonly greeting: number;
  /** Of silence from the server at any later step. */
  readonly idle: number;
  /** For the whole send, from connecting to the server's answer to the mail: past it the send fails and the message is tried again later. */
  readonly send: number;
}

/**
 * Bounded so that a send always ends well inside the delivery loop's lease (25 s): a server
 * that stalls fails the attempt (the message is retried later) instead of outliving the lease,
 * which would let another process send the same message meanwhile.
 */
export const DEFAULT_SMTP_TIMEOUTS: SmtpTimeouts = { connect: 5_000, greeting: 5_000, idle: 10_000, send: 15_000 };

/** An SMTP server to send through, as `MAIL_URL`, `MAIL_FROM` and `APP_URL` say. */
export interface SmtpMailSenderOptions extends MailSite {
  readonly transport: SmtpTransport;
  readonly timeouts?: Partial<SmtpTimeouts>;
  /**
   * Certificates to trust besides the system's, for a server whose certificate a private CA
   * signed (tests pass theirs; a deployment sets `NODE_EXTRA_CA_CERTS`).
   */
  readonly ca?: SecureContextOptions['ca'];
}

/** A `MailSender` that can be closed. */
export interface ClosableMailSender extends MailSender {
  close(): Promise<void>;
}

/**
 * A `MailSender` on nodemailer's SMTP transport: one connection per mail, TLS from the start for
 * `smtps://`, and for `smtp://` STARTTLS whenever the server offers it (the certificate checked
 * either way). `send` resolves once the server accepted the mail for its recipient and rejects
 * otherwise (refused, unreachable, too slow), so the message is retried later. Every mail carries
 * the same `Message-ID` on every attempt, made from the message's id.
 */
export function createSmtpMailSender(options: SmtpMailSenderOptions): ClosableMailSender {
  const timeouts = { ...DEFAULT_SMTP_TIMEOUTS, ...options.timeouts };
  const { transport } = options;
  const mailer = createTransport({
    host: transport.host,
    port: transport.port,
    secure: transport.secure,
    ...(transport.auth === undefined ? {} : { auth: { user: transport.auth.user, pass: transport.auth.pass } }),
    connectionTimeout: timeouts.connect,
    greetingTimeout: timeouts.greeting,
    socketTimeout: timeouts.idle,
    dnsTimeout: timeouts.connect,
    // What we send never names a file or a URL to fetch; refuse both should it ever do.
    disableFileAccess: true,
    disableUrlAccess: true,
    ...(options.ca === undefined ? {} : { tls: { ca: options.ca } }),
  });
  return {
    async send(mail: Mail) {
      const written = writeMail(mail, options);
      await mailer.sendMail({
        messageId: written.messageId,
        from: written.from,
        to: written.to,
        subject: written.subject,
        text: written.text,
        html: written.html,
        // RFC 3834: an automatic message, so that vacation responders do not answer it.
        headers: { 'Auto-Submitted': 'auto-generated' },
        signal: AbortSignal.timeout(timeouts.send),
      });
    },
    async close() {
      mailer.close();
    },
  };
}
