// A real SMTP server in the test process (smtp-server, the Nodemailer project's own), on
// 127.0.0.1, that keeps what arrives: each mail's envelope, whether the connection was encrypted,
// and its headers, text and HTML read back from the raw message. A test can take it down and bring
// it back on the same port, and hold a mail at its recipient or at the end of its DATA until it
// says what to answer.
// A DATA whose connection closed before its end (the final ".") is kept apart: the server
// discarded it, and a test can tell that the whole mail came but its end never did.
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { SMTPServer, type SMTPServerOptions } from 'smtp-server';
import type { TestCertificate } from './certificate.js';

/** One mail as the server read it. */
export interface ReceivedMail {
  /** The envelope's sender and recipients (`MAIL FROM`, `RCPT TO`). */
  readonly envelope: { readonly from: string; readonly to: readonly string[] };
  /** Whether the connection was encrypted when the mail was sent (STARTTLS or smtps://). */
  readonly secure: boolean;
  /** The user the client logged in as, if it did. */
  readonly user: string | undefined;
  /** The message as it arrived. */
  readonly raw: string;
  /** Its top-level headers, names lower-cased, folded lines joined. */
  readonly headers: ReadonlyMap<string, string>;
  readonly messageId: string;
  readonly subject: string;
  readonly from: string;
  readonly to: string;
  /** The text/plain part, decoded. */
  readonly text: string;
  /** The text/html part, decoded ('' when there is none). */
  readonly html: string;
  /** The first https?:// link of the text part, if any. */
  readonly link: string | undefined;
}

/** A mail held at the end of its DATA: the server has it, and has not answered yet. */
export interface HeldMail {
  /** Resolves with the mail once it arrives. */
  readonly arrived: Promise<ReceivedMail>;
  /** Answers it: 250, the mail accepted (kept in `received`, whether or not the client is still there to hear), or 451, refused. */
  release(answer: 'accept' | 'refuse'): void;
}

/** How the server speaks: plain with STARTTLS offered, plain without it, or TLS from the start. */
export interface TestMailServerOptions {
  readonly tls?: 'starttls' | 'none' | 'implicit';
  /** The key and certificate for STARTTLS and smtps:// (required for them). */
  readonly certificate?: TestCertificate;
  /** A login the server requires. */
  readonly login?: { readonly user: string; readonly pass: string };
  /**
   * Recipients the server refuses at `RCPT TO`, as mail servers do, with a reply that names the
   * address: `550 5.1.1 <address>: Recipient address rejected`.
   */
  readonly refuseRecipient?: (address: string) => boolean;
}

/** A test SMTP server on 127.0.0.1. */
export interface TestMailServer {
  /** Its `MAIL_URL`: `smtp://127.0.0.1:PORT` (or `smtps://`), with the login when it requires one. */
  readonly url: string;
  readonly port: number;
  /** Every mail accepted, in order. */
  readonly received: readonly ReceivedMail[];
  /** Every mail whose DATA arrived, accepted or not, in order. */
  readonly arrivals: readonly ReceivedMail[];
  /** What came of every DATA whose connection closed before its end (the final "."), raw, in order: mail the server discarded. */
  readonly unfinished: readonly string[];
  /** Resolves with `received` once it holds at least `count` mails; rejects after `timeoutMs`. */
  waitFor(count: number, timeoutMs?: number): Promise<readonly ReceivedMail[]>;
  /** Holds the next mail whose DATA arrives until `release`. */
  holdNext(): HeldMail;
  /**
   * Holds the reply to the next `RCPT TO` until `release` (accept: 250; refuse: 451): a sender
   * held there has sent nothing of its mail yet. `reached` resolves with the address once it comes.
   */
  holdNextRecipient(): { readonly reached: Promise<string>; release(answer: 'accept' | 'refuse'): void };
  /** Stops listening: connections are refused, as to a mail server that is down. */
  stop(): Promise<void>;
  /** Listens again on the same port (nothing when it listens). */
  start(): Promise<void>;
  /** Whether it listens now. */
  listening(): boolean;
  close(): Promise<void>;
}

/** Starts a test SMTP server on a free port of 127.0.0.1. */
export async function startTestMailServer(options: TestMailServerOptions = {}): Promise<TestMailServer> {
  const mode = options.tls ?? 'none';
  if (mode !== 'none' && options.certificate === undefined) throw new Error(`startTestMailServer: tls '${mode}' needs a certificate`);
  const received: ReceivedMail[] = [];
  const arrivals: ReceivedMail[] = [];
  const unfinished: string[] = [];
  const holds: { arrived: (mail: ReceivedMail) => void; answer: Promise<'accept' | 'refuse'> }[] = [];
  const recipientHolds: { reached: (address: string) => void; answer: Promise<'accept' | 'refuse'> }[] = [];
  const waiters = new Set<() => void>();
  const changed = () => {
    for (const wake of waiters) wake();
  };

  const settings: SMTPServerOptions = {
    secure: mode === 'implicit',
    hideSTARTTLS: mode === 'none',
    // Not offered, and not taken either: a client that asks for STARTTLS all the same is refused.
    ...(mode === 'none' ? { disabledCommands: ['STARTTLS'] } : {}),
    ...(options.certificate ?? {}),
    disableReverseLookup: true,
    logger: false,
    authOptional: options.login === undefined,
    authMethods: ['PLAIN', 'LOGIN'],
    onRcptTo(address, _session, callback) {
      if (options.refuseRecipient?.(address.address)) {
        callback(Object.assign(new Error(`5.1.1 <${address.address}>: Recipient address rejected: User unknown in virtual mailbox table`), { responseCode: 550 }));
        return;
      }
      const hold = recipientHolds.shift();
      if (!hold) return callback();
      hold.reached(address.address);
      void hold.answer.then((verdict) => {
        try {
          callback(verdict === 'accept' ? undefined : Object.assign(new Error('Try again later'), { responseCode: 451 }));
        } catch {
          // the client is gone
        }
      });
    },
    onAuth(auth, _session, callback) {
      const login = options.login;
      if (login && auth.username === login.user && auth.password === login.pass) callback(null, { user: auth.username });
      else callback(new Error('Invalid username or password'));
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      // The client closed the connection before the end of the DATA: smtp-server drops the mail.
      stream.on('error', () => {
        unfinished.push(Buffer.concat(chunks).toString('utf8'));
        changed();
      });
      stream.on('end', () => {
        const mail = readMail(Buffer.concat(chunks).toString('utf8'), {
          from: session.envelope.mailFrom === false ? '' : session.envelope.mailFrom.address,
          to: session.envelope.rcptTo.map((recipient) => recipient.address),
          secure: session.secure,
          user: typeof session.user === 'string' ? session.user : undefined,
        });
        arrivals.push(mail);
        const hold = holds.shift();
        const answer = hold ? (hold.arrived(mail), hold.answer) : Promise.resolve('accept' as const);
        void answer.then((verdict) => {
          if (verdict === 'accept') received.push(mail);
          changed();
          // The client may be gone (a process killed while its mail was held); the answer then goes nowhere.
          try {
            callback(verdict === 'accept' ? null : Object.assign(new Error('Try again later'), { responseCode: 451 }));
          } catch {
            // nothing to tell a connection that is closed
          }
        });
      });
    },
  };

  let server: SMTPServer | undefined;
  let port = 0;
  const start = async () => {
    if (server) return;
    const next = new SMTPServer(settings);
    // A client that gives up (an untrusted certificate, a process killed mid-mail) is an error of
    // the connection, which the test reads from what its client saw.
    next.on('error', () => undefined);
    next.listen(port, '127.0.0.1');
    await once(next.server, 'listening');
    port = (next.server.address() as AddressInfo).port;
    server = next;
  };
  const stop = async () => {
    const current = server;
    server = undefined;
    if (current) await new Promise<void>((resolve) => current.close(() => resolve()));
  };
  await start();

  const login = options.login ? `${encodeURIComponent(options.login.user)}:${encodeURIComponent(options.login.pass)}@` : '';
  return {
    url: `${mode === 'implicit' ? 'smtps' : 'smtp'}://${login}127.0.0.1:${port}`,
    port,
    received,
    arrivals,
    unfinished,
    waitFor(count, timeoutMs = 20_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          if (received.length < count) return;
          finish();
          resolve(received);
        };
        const timer = setTimeout(() => {
          finish();
          reject(new Error(`the test mail server received ${received.length} mails within ${timeoutMs} ms, not ${count}`));
        }, timeoutMs);
        const finish = () => {
          clearTimeout(timer);
          waiters.delete(check);
        };
        waiters.add(check);
        check();
      });
    },
    holdNext() {
      const answer = resolvers<'accept' | 'refuse'>();
      const arrival = resolvers<ReceivedMail>();
      holds.push({ arrived: arrival.resolve, answer: answer.promise });
      return { arrived: arrival.promise, release: answer.resolve };
    },
    holdNextRecipient() {
      const answer = resolvers<'accept' | 'refuse'>();
      const reaching = resolvers<string>();
      recipientHolds.push({ reached: reaching.resolve, answer: answer.promise });
      return { reached: reaching.promise, release: answer.resolve };
    },
    stop,
    start,
    listening: () => server !== undefined,
    close: stop,
  };
}

/** A promise and the function that resolves it. */
function resolvers<T>(): { promise: Promise<T>; resolve: (value: T) => void } {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((settle) => (resolve = settle));
  return { promise, resolve };
}

/** Reads a raw message: its headers, and the decoded text/plain and text/html parts. */
function readMail(raw: string, session: { from: string; to: string[]; secure: boolean; user: string | undefined }): ReceivedMail {
  const { headers, body } = splitPart(raw);
  const parts = new Map<string, string>();
  collectParts(headers, body, parts);
  const text = parts.get('text/plain') ?? '';
  return {
    envelope: { from: session.from, to: session.to },
    secure: session.secure,
    user: session.user,
    raw,
    headers,
    messageId: headers.get('message-id') ?? '',
    subject: headers.get('subject') ?? '',
    from: headers.get('from') ?? '',
    to: headers.get('to') ?? '',
    text,
    html: parts.get('text/html') ?? '',
    link: /https?:\/\/\S+/.exec(text)?.[0],
  };
}

/** A MIME entity's headers (lower-cased names, folded lines joined) and its body. */
function splitPart(entity: string): { headers: Map<string, string>; body: string } {
  const end = entity.search(/\r?\n\r?\n/);
  const head = end < 0 ? entity : entity.slice(0, end);
  const body = end < 0 ? '' : entity.slice(end).replace(/^\r?\n\r?\n/, '');
  const headers = new Map<string, string>();
  for (const line of head.replace(/\r?\n[ \t]+/g, ' ').split(/\r?\n/)) {
    const colon = line.indexOf(':');
    if (colon > 0) headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
  }
  return { headers, body };
}

/** Walks multipart entities, keeping each text part, decoded, by its media type. */
function collectParts(headers: Map<string, string>, body: string, parts: Map<string, string>): void {
  const type = headers.get('content-type') ?? 'text/plain';
  const boundary = /boundary="?([^";]+)"?/i.exec(type)?.[1];
  if (type.toLowerCase().startsWith('multipart/') && boundary !== undefined) {
    const sections = body.split(`--${boundary}`).slice(1);
    for (const section of sections) {
      if (section.startsWith('--')) break;
      const part = splitPart(section.replace(/^\r?\n/, ''));
      collectParts(part.headers, part.body.replace(/\r?\n$/, ''), parts);
    }
    return;
  }
  const media = type.split(';')[0]?.trim().toLowerCase() ?? 'text/plain';
  parts.set(media, decode(body, headers.get('content-transfer-encoding')?.toLowerCase()));
}

/** A part's body in its transfer encoding, as UTF-8 text with LF line ends. */
function decode(body: string, encoding: string | undefined): string {
  let bytes: Buffer;
  if (encoding === 'base64') bytes = Buffer.from(body.replace(/\s+/g, ''), 'base64');
  else if (encoding === 'quoted-printable') {
    const joined = body.replace(/=\r?\n/g, '');
    bytes = Buffer.from(joined.replace(/=([0-9A-F]{2})/gi, (_, hex: string) => String.fromCharCode(parseInt(hex, 16))), 'latin1');
  } else bytes = Buffer.from(body, 'utf8');
  return bytes.toString('utf8').replace(/\r\n/g, '\n');
}
