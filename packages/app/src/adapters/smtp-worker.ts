// Runs in the SMTP sender's worker thread (smtp-mail-sender.ts): each mail's words and MIME, and
// nodemailer's whole SMTP dialogue, TLS handshake included, happen here rather than on the event
// loop that serves requests. So what a mail costs is not felt by the requests that follow it: a
// reset asked for an address with an account must not make the next answers slower than one
// asked for an address without (bench/reset-timing.ts).
import { setPriority } from 'node:os';
import { Readable } from 'node:stream';
import { parentPort, workerData } from 'node:worker_threads';
import { createTransport, type SendMailOptions } from 'nodemailer';
import { writeMail } from './mail-words.js';
import type { FromWorker, SmtpFailureFacts, SmtpFailureKind, SmtpWorkerSetup, ToWorker } from './smtp-mail-sender.js';

// On Linux, priority is per thread and 0 names the calling one: sending yields the CPU to the
// event loop whenever both want it (as the hashing threads do), so a mail's TLS handshake does
// not slow the requests served meanwhile. Where that is not allowed, it runs at normal priority.
try {
  setPriority(0, 10);
} catch {
  // not permitted here: keep the default priority
}

const setup = workerData as SmtpWorkerSetup;
const { transport, timeouts } = setup;
const mailer = createTransport({
  host: transport.host,
  port: transport.port,
  secure: transport.secure,
  // STARTTLS before anything else is said, or no mail: a server that does not offer it (or an
  // attacker on the path who strips the offer) gets nothing in clear.
  requireTLS: !transport.secure && transport.starttls === 'required',
  ...(transport.auth === undefined ? {} : { auth: { user: transport.auth.user, pass: transport.auth.pass } }),
  connectionTimeout: timeouts.connect,
  greetingTimeout: timeouts.greeting,
  socketTimeout: timeouts.idle,
  dnsTimeout: timeouts.connect,
  // What we send never names a file or a URL to fetch; refuse both should it ever do.
  disableFileAccess: true,
  disableUrlAccess: true,
  ...(setup.ca === undefined ? {} : { tls: { ca: setup.ca } }),
});

/** What a gated send's message stream asks before it ends: resolves when its end may go, rejects when it must not. */
type EndGate = () => Promise<void>;

/** A mail's options, with the gate of its end when it has one (read by the 'stream' plugin below). */
type GatedMailOptions = SendMailOptions & { endGate?: EndGate };

/**
 * The point of no return of a send is the end of its DATA: nodemailer writes the final "." once
 * the message's stream ends, and it reads that stream only once the server answered DATA (354).
 * A gated mail's stream hands each byte over as the connection asks for it, and ends only once
 * the connection has taken every byte and the gate allows; when the gate refuses, the stream
 * fails, and nodemailer closes the connection without the "." (the error of the source stream
 * fails the send and destroys the socket; the stream that appends the "." is never ended).
 */
mailer.use('stream', (mail, done) => {
  const gate = (mail.data as GatedMailOptions).endGate;
  if (gate !== undefined) mail.message.processFunc((input) => endingWhen(input, gate));
  done();
});

/**
 * The message `input` carries, handed over a chunk at a time as its reader asks (nothing is read
 * ahead: its buffer holds nothing), ended only once the reader asked past the last byte and `gate`
 * resolved; failed with `gate`'s rejection or `input`'s error. A mail is a few kilobytes, so
 * `input` is read whole as it comes.
 */
function endingWhen(input: Readable, gate: EndGate): Readable {
  const chunks: Buffer[] = [];
  let inputEnded = false;
  let wanted = false;
  let asked = false;
  const output = new Readable({
    highWaterMark: 0,
    read() {
      wanted = true;
      feed();
    },
  });
  const feed = () => {
    if (!wanted) return;
    const chunk = chunks.shift();
    if (chunk !== undefined) {
      wanted = false;
      output.push(chunk);
      return;
    }
    if (!inputEnded || asked) return;
    asked = true;
    wanted = false;
    gate().then(
      () => output.push(null),
      (error: unknown) => output.destroy(error instanceof Error ? error : new Error('the end of the mail was not allowed')),
    );
  };
  input.on('data', (chunk: Buffer) => {
    chunks.push(chunk);
    feed();
  });
  input.on('end', () => {
    inputEnded = true;
    feed();
  });
  input.on('error', (error) => output.destroy(error));
  return output;
}

/** A send under way: how to call it off, and the answer its commit question waits for. */
interface Send {
  readonly stop: AbortController;
  answer?: (ok: boolean) => void;
}

const sends = new Map<number, Send>();
const port = parentPort;
if (port === null) throw new Error('smtp-worker.ts runs only as a worker thread');

port.on('message', (message: ToWorker) => {
  if (message.type === 'abort') {
    sends.get(message.id)?.stop.abort();
    return;
  }
  if (message.type === 'commit') {
    sends.get(message.id)?.answer?.(message.ok);
    return;
  }
  const stop = new AbortController();
  const send: Send = { stop };
  sends.set(message.id, send);
  const startedAt = performance.now();
  const timedOut = new AbortController();
  const sendTimer = setTimeout(() => timedOut.abort(), timeouts.send);
  let holdTimer: NodeJS.Timeout | undefined;
  // Past the end of the mail, the send keeps to what it said it may still take: the idle timeout
  // (RFC 5321's wait for the answer to the "."), or the rest of the whole send's when less. Counted
  // from the grant, when the "." goes: the lease granted covers the time the grant took besides.
  const endGate: EndGate = () => {
    const holdMs = Math.max(0, Math.min(timeouts.idle, startedAt + timeouts.send - performance.now()));
    const answered = new Promise<void>((resolve, reject) => {
      send.answer = (ok) => {
        send.answer = undefined;
        if (!ok) return reject(new Error('the end of the mail was not allowed'));
        holdTimer = setTimeout(() => timedOut.abort(), holdMs);
        resolve();
      };
      stop.signal.addEventListener('abort', () => reject(new Error('aborted')), { once: true });
    });
    port.postMessage({ type: 'commit', id: message.id, holdMs } satisfies FromWorker);
    return answered;
  };
  const written = writeMail(message.mail, setup.site);
  const options: GatedMailOptions = {
    messageId: written.messageId,
    from: written.from,
    to: written.to,
    subject: written.subject,
    text: written.text,
    html: written.html,
    // RFC 3834: an automatic message, so that vacation responders do not answer it.
    headers: { 'Auto-Submitted': 'auto-generated' },
    signal: AbortSignal.any([stop.signal, timedOut.signal]),
    ...(message.gated ? { endGate } : {}),
  };
  mailer
    .sendMail(options)
    .then(
      () => port.postMessage({ type: 'done', id: message.id, ok: true } satisfies FromWorker),
      (error: unknown) => port.postMessage({ type: 'done', id: message.id, ok: false, failure: factsOf(error, stop.signal.aborted) } satisfies FromWorker),
    )
    .finally(() => {
      clearTimeout(sendTimer);
      clearTimeout(holdTimer);
      sends.delete(message.id);
    });
});

const UNREACHABLE = new Set(['ECONNECTION', 'ESOCKET', 'EDNS', 'ECONNREFUSED', 'ECONNRESET', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN', 'EPIPE']);
const TLS = /^(ETLS|ERR_TLS_|ERR_SSL_|CERT_|DEPTH_ZERO_|SELF_SIGNED_|UNABLE_TO_|HOSTNAME_)/;

/**
 * What may be said of a failed send: its kind, and nodemailer's or the socket's code, the
 * server's reply code and the SMTP command it answered, each only in the shape such a value has.
 * Never the error's message or the server's reply text: a server writes the recipient's address
 * into them (`550 5.1.1 <user@host>: Recipient address rejected`).
 */
function factsOf(error: unknown, stopped: boolean): SmtpFailureFacts {
  const { code, originalCode, responseCode, command, name } = (typeof error === 'object' && error !== null ? error : {}) as Record<string, unknown>;
  // nodemailer puts its own code on a socket's error and keeps the socket's (ECONNREFUSED, a
  // certificate's) as `originalCode`: the more telling one comes first.
  const codes = [originalCode, code].filter((value): value is string => typeof value === 'string' && /^[A-Z][A-Z0-9_]{1,48}$/.test(value));
  const facts = {
    ...(codes[0] === undefined ? {} : { code: codes[0] }),
    ...(typeof responseCode === 'number' && Number.isInteger(responseCode) && responseCode >= 100 && responseCode < 600 ? { responseCode } : {}),
    ...(typeof command === 'string' && /^[A-Z][A-Z ]{1,23}$/.test(command) ? { command } : {}),
  };
  return { kind: kindOf(codes, name, facts.responseCode, stopped), ...facts };
}

/** The kind of a failure; an abort the sender did not ask for is the whole send's time running out. */
function kindOf(codes: readonly string[], name: unknown, responseCode: number | undefined, stopped: boolean): SmtpFailureKind {
  if (codes.includes('EABORT') || name === 'AbortError') return stopped ? 'aborted' : 'timeout';
  if (codes.includes('ETIMEDOUT')) return 'timeout';
  if (codes.some((code) => TLS.test(code))) return 'tls';
  if (codes.includes('EAUTH') || codes.includes('ENOAUTH')) return 'auth';
  if (responseCode !== undefined && responseCode >= 400) return 'refused';
  if (codes.some((code) => UNREACHABLE.has(code))) return 'unreachable';
  return 'other';
}
