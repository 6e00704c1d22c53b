import type { Mail, MailSender, SendOptions } from '@inkwell/domain';
import { Worker } from 'node:worker_threads';
import type { SecureContextOptions } from 'node:tls';
import type { SmtpTransport } from '../config.js';
import type { MailSite } from './mail-words.js';

/** How long each step of a send may take, in milliseconds. */
export interface SmtpTimeouts {
  /** To open the TCP connection (and the TLS handshake of smtps://): nothing is sent before it, so a short wait risks nothing. */
  readonly connect: number;
  /** For the server's greeting once connected. */
  readonly greeting: number;
  /** Of silence from the server at any later step, the reply to the end of the mail included. */
  readonly idle: number;
  /** For the whole send, from connecting to the server's answer to the mail: past it the send fails and the message is tried again later. */
  readonly send: number;
}

const MINUTE_MS = 60_000;

/**
 * RFC 5321 §4.5.3.2's timeouts: 5 minutes for the greeting, and a silence of up to 10 minutes at
 * any step, which the reply to the end of the mail (the one RFC 5321 gives 10 minutes, "to avoid
 * duplicate messages") needs. A client that gave up sooner would try the mail again while the
 * server may still accept it. The delivery loop renews the message's lease until the end of the
 * mail, then holds it for the wait for the reply (`commit`). Connecting is bounded at 30 s (nothing
 * is sent until then), and a whole send at 20 minutes, so that no server, however it trickles its
 * replies, holds a delivery for ever.
 */
export const DEFAULT_SMTP_TIMEOUTS: SmtpTimeouts = { connect: 30_000, greeting: 5 * MINUTE_MS, idle: 10 * MINUTE_MS, send: 20 * MINUTE_MS };

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
  /** Stops the sender's thread; a send still under way fails. */
  close(): Promise<void>;
}

/**
 * What went wrong with a send, as far as it may be said:
 * - `refused`: the server answered the mail (or its sender, a recipient) with a 4xx or 5xx reply;
 * - `tls`: TLS could not be had: the server offers no STARTTLS where it is required, or its
 *   certificate is not trusted, or the handshake failed;
 * - `auth`: the login of `MAIL_URL` was refused, or the server asks for one and there is none;
 * - `unreachable`: no connection (refused, reset, closed, a name that does not resolve);
 * - `timeout`: the server stayed silent past a timeout, or the whole send took too long;
 * - `aborted`: the send was called off (the message's lease could no longer be kept);
 * - `other`: anything else.
 */
export type SmtpFailureKind = 'refused' | 'tls' | 'auth' | 'unreachable' | 'timeout' | 'aborted' | 'other';

/** The facts of a failed send: never the server's reply text or an error's message, which may carry an address. */
export interface SmtpFailureFacts {
  readonly kind: SmtpFailureKind;
  /** nodemailer's code (`EENVELOPE`, `ETLS`, …) or the socket's (`ECONNREFUSED`, a certificate error's). */
  readonly code?: string;
  /** The server's reply code, when it answered (`550`). */
  readonly responseCode?: number;
  /** The SMTP command the reply answered (`RCPT TO`, `DATA`, …). */
  readonly command?: string;
}

/** A send that failed: its message is made of its facts alone, so it can be logged as it is. */
export class SmtpFailure extends Error implements SmtpFailureFacts {
  override readonly name = 'SmtpFailure';
  readonly kind: SmtpFailureKind;
  readonly code?: string;
  readonly responseCode?: number;
  readonly command?: string;

  /** A failure with these facts. */
  constructor(facts: SmtpFailureFacts) {
    const detail = [facts.responseCode ?? facts.code, facts.command === undefined ? undefined : `at ${facts.command}`].filter((part) => part !== undefined).join(' ');
    super(`SMTP send failed: ${facts.kind}${detail === '' ? '' : ` (${detail})`}`);
    this.kind = facts.kind;
    if (facts.code !== undefined) this.code = facts.code;
    if (facts.responseCode !== undefined) this.responseCode = facts.responseCode;
    if (facts.command !== undefined) this.command = facts.command;
  }
}

/** What the worker thread starts with. */
export interface SmtpWorkerSetup {
  readonly transport: SmtpTransport;
  readonly timeouts: SmtpTimeouts;
  readonly site: MailSite;
  readonly ca?: SecureContextOptions['ca'];
}

/**
 * A message to the worker thread: a mail to send (`gated`: its end waits for a `commit` answer),
 * a send to call off, or the answer to a send's `commit` question (`ok`: its end may go).
 */
export type ToWorker =
  | { readonly type: 'send'; readonly id: number; readonly mail: Mail; readonly gated: boolean }
  | { readonly type: 'abort'; readonly id: number }
  | { readonly type: 'commit'; readonly id: number; readonly ok: boolean };

/**
 * A message from the worker thread: how a send ended, or a gated send asking whether its end may
 * go (`holdMs`: the most it may still take once it may).
 */
export type FromWorker =
  | { readonly type: 'done'; readonly id: number; readonly ok: true }
  | { readonly type: 'done'; readonly id: number; readonly ok: false; readonly failure: SmtpFailureFacts }
  | { readonly type: 'commit'; readonly id: number; readonly holdMs: number };

// From source (tests, `pnpm dev`) this module is .ts and so is its worker; built, both are .js.
const workerFile = new URL(`./smtp-worker${import.meta.url.endsWith('.ts') ? '.ts' : '.js'}`, import.meta.url);

/**
 * A `MailSender` on nodemailer's SMTP transport, run in a worker thread of its own (the mail's
 * words, MIME and SMTP dialogue, TLS included, cost the event loop nothing): one connection per
 * mail, TLS from the start for `smtps://`, and for `smtp://` STARTTLS, required unless the
 * transport says it is optional (`MAIL_URL`'s `?starttls=optional`, and by default for a server on
 * a loopback address), the certificate checked either way. `send` resolves once the server accepted
 * the mail for its recipient and rejects with an `SmtpFailure` otherwise (refused, unreachable,
 * too slow, aborted by its signal), so the message is retried later. Every mail carries the same
 * `Message-ID` on every attempt, made from the message's id. A thread that dies fails the sends
 * under way and is started again for the next.
 *
 * With `commit`, the final "." of DATA (the point past which the server may accept the mail) waits
 * until `commit(holdMs)` resolves, `holdMs` being the idle timeout (or what is left of the whole
 * send's, when less), which the thread then keeps to from the "."; when it rejects, the
 * connection is closed without the ".", so the server has only an unfinished DATA, which it
 * discards.
 */
export function createSmtpMailSender(options: SmtpMailSenderOptions): ClosableMailSender {
  const setup: SmtpWorkerSetup = {
    transport: options.transport,
    timeouts: { ...DEFAULT_SMTP_TIMEOUTS, ...options.timeouts },
    site: { from: options.from, appUrl: options.appUrl },
    ...(options.ca === undefined ? {} : { ca: options.ca }),
  };
  const pending = new Map<number, { resolve: () => void; reject: (error: SmtpFailure) => void; commit?: (holdMs: number) => Promise<void> }>();
  let nextId = 0;
  let worker: Worker | undefined;
  let closed = false;

  const failAll = (facts: SmtpFailureFacts) => {
    for (const { reject } of pending.values()) reject(new SmtpFailure(facts));
    pending.clear();
  };
  const thread = (): Worker => {
    if (worker) return worker;
    const started = new Worker(workerFile, { workerData: setup, ...workerExecArgv() });
    started.unref();
    started.on('message', (message: FromWorker) => {
      const waiting = pending.get(message.id);
      if (message.type === 'commit') {
        const answer = (ok: boolean) => {
          if (worker === started) started.postMessage({ type: 'commit', id: message.id, ok } satisfies ToWorker);
        };
        if (waiting?.commit === undefined) return answer(waiting !== undefined);
        waiting.commit(message.holdMs).then(
          () => answer(true),
          () => answer(false),
        );
        return;
      }
      pending.delete(message.id);
      if (message.ok) waiting?.resolve();
      else waiting?.reject(new SmtpFailure(message.failure));
    });
    const gone = () => {
      if (worker === started) worker = undefined;
      failAll({ kind: 'other', code: 'EWORKER' });
    };
    started.on('error', gone);
    started.on('exit', gone);
    return (worker = started);
  };

  return {
    send(mail: Mail, sendOptions: SendOptions = {}) {
      const { signal, commit } = sendOptions;
      if (closed) return Promise.reject(new SmtpFailure({ kind: 'other', code: 'ECLOSED' }));
      if (signal?.aborted) return Promise.reject(new SmtpFailure({ kind: 'aborted', code: 'EABORT' }));
      const id = ++nextId;
      const target = thread();
      return new Promise<void>((resolve, reject) => {
        const onAbort = () => {
          // Answered at once: the caller stops counting on the send; the thread closes its connection.
          pending.delete(id);
          target.postMessage({ type: 'abort', id } satisfies ToWorker);
          reject(new SmtpFailure({ kind: 'aborted', code: 'EABORT' }));
        };
        signal?.addEventListener('abort', onAbort, { once: true });
        pending.set(id, {
          resolve: () => (signal?.removeEventListener('abort', onAbort), resolve()),
          reject: (error) => (signal?.removeEventListener('abort', onAbort), reject(error)),
          ...(commit === undefined ? {} : { commit }),
        });
        target.postMessage({ type: 'send', id, mail: { ...mail }, gated: commit !== undefined } satisfies ToWorker);
      });
    },
    async close() {
      closed = true;
      const stopping = worker;
      worker = undefined;
      failAll({ kind: 'other', code: 'ECLOSED' });
      await stopping?.terminate();
    },
  };
}

/**
 * A built server passes nothing, so the thread inherits the process's flags. From source the
 * worker is TypeScript: it is loaded through tsx's loader, which a thread registers for itself
 * when `--import tsx` is among its flags.
 */
function workerExecArgv(): { execArgv?: string[] } {
  if (!workerFile.pathname.endsWith('.ts')) return {};
  const inherited = process.execArgv;
  const hasTsx = inherited.some((flag, i) => (flag === '--import' && inherited[i + 1] === 'tsx') || flag === '--import=tsx');
  return { execArgv: hasTsx ? [...inherited] : [...inherited, '--import', 'tsx'] };
}
