import type { Mail } from '@inkwell/domain';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { readConfig, type SmtpTransport } from '../config.js';
import { selfSignedCertificate, type TestCertificate } from '../test-support/certificate.js';
import { startTestMailServer, type TestMailServer, type TestMailServerOptions } from '../test-support/mail-server.js';
import { createSmtpMailSender, DEFAULT_SMTP_TIMEOUTS, SmtpFailure, type SmtpMailSenderOptions } from './smtp-mail-sender.js';

const TOKEN = 'q1w2e3r4t5y6u7i8o9p0a1s2d3f4g5h6j7k8l9z0x1c';
const RESET: Mail = { messageId: '65a1b2c3d4e5f6a7b8c9d0e1', kind: 'password-reset', to: 'alice@example.com', name: 'Alice', token: TOKEN, linkExpiresAt: Date.UTC(2026, 0, 1) };
const SITE = { from: 'Example <no-reply@example.com>', appUrl: 'https://app.example.com' };

// Each test starts the sender's worker thread, which loads nodemailer and, from source, compiles
// its TypeScript, at a low priority: on a busy machine that alone can take seconds, so the tests
// wait for what they prove (a send failing within its own bound, set short) for longer than that.
describe('the SMTP MailSender, against a real SMTP server in this process', { timeout: 30_000 }, () => {
  let certificate: TestCertificate;
  let server: TestMailServer | undefined;
  const senders: { close(): Promise<void> }[] = [];
  beforeAll(() => {
    certificate = selfSignedCertificate();
  });
  afterEach(async () => {
    await Promise.all(senders.splice(0).map((sender) => sender.close()));
    await server?.close();
    server = undefined;
  });

  /** A test server, and a sender configured from its URL exactly as MAIL_URL is read. */
  async function serverAndSender(serverOptions: TestMailServerOptions, senderOptions: Partial<SmtpMailSenderOptions> = {}) {
    server = await startTestMailServer({ certificate, ...serverOptions });
    const mail = readConfig({ MAIL_URL: server.url, MAIL_FROM: SITE.from, APP_URL: SITE.appUrl }).mail;
    const sender = createSmtpMailSender({ ...SITE, transport: mail?.transport as SmtpTransport, ca: certificate.cert, ...senderOptions });
    senders.push(sender);
    return { server, sender };
  }

  it('smtp:// upgrades with STARTTLS when the server offers it, and delivers the mail: recipients, sender, subject, link, Message-ID', async () => {
    const { server, sender } = await serverAndSender({ tls: 'starttls' });
    await sender.send(RESET);
    const [mail] = server.received;
    expect(server.received).toHaveLength(1);
    expect(mail?.secure).toBe(true);
    expect(mail?.envelope).toEqual({ from: 'no-reply@example.com', to: ['alice@example.com'] });
    expect(mail?.from).toBe('Example <no-reply@example.com>');
    expect(mail?.to).toBe('alice@example.com');
    expect(mail?.subject).toBe('Reset your password on app.example.com');
    expect(mail?.messageId).toBe('<65a1b2c3d4e5f6a7b8c9d0e1@app.example.com>');
    expect(mail?.link).toBe(`https://app.example.com/reset-password?token=${TOKEN}`);
    expect(mail?.headers.get('auto-submitted')).toBe('auto-generated');
    expect(mail?.headers.get('content-type')).toMatch(/^multipart\/alternative/);
    expect(mail?.text).toContain('If you did not ask for this, ignore this message');
    expect(mail?.html).toContain(`<a href="https://app.example.com/reset-password?token=${TOKEN}">`);
  });

  it('smtp:// refuses to send when the offered STARTTLS certificate cannot be trusted, rather than fall back to plain text', async () => {
    const { server, sender } = await serverAndSender({ tls: 'starttls' }, { ca: undefined });
    await expect(sender.send(RESET)).rejects.toMatchObject({ name: 'SmtpFailure', kind: 'tls' });
    expect(server.arrivals).toHaveLength(0);
  });

  it('smtp:// with STARTTLS required (any host but a loopback one) sends nothing to a server that does not offer it', async () => {
    const { server } = await serverAndSender({ tls: 'none' });
    const sender = createSmtpMailSender({ ...SITE, transport: { kind: 'smtp', secure: false, starttls: 'required', host: '127.0.0.1', port: server.port }, ca: certificate.cert });
    senders.push(sender);
    const failure = await sender.send(RESET).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(SmtpFailure);
    expect(failure).toMatchObject({ kind: 'tls', code: 'ETLS' });
    expect(server.arrivals).toHaveLength(0);
  });

  it('smtp:// to a loopback host (STARTTLS optional) sends in plain text to a server that offers no STARTTLS', async () => {
    const { server, sender } = await serverAndSender({ tls: 'none' });
    await sender.send(RESET);
    expect(server.received.map((mail) => [mail.secure, mail.messageId])).toEqual([[false, '<65a1b2c3d4e5f6a7b8c9d0e1@app.example.com>']]);
  });

  it('smtps:// speaks TLS from the start', async () => {
    const { server, sender } = await serverAndSender({ tls: 'implicit' });
    expect(server.url).toMatch(/^smtps:\/\//);
    await sender.send(RESET);
    expect(server.received.map((mail) => mail.secure)).toEqual([true]);
  });

  it('logs in with the user and password of MAIL_URL, and fails on a wrong one', async () => {
    const login = { user: 'mailer@example.com', pass: 'p@ss:w/rd' };
    const { server, sender } = await serverAndSender({ tls: 'starttls', login });
    expect(server.url).toContain('mailer%40example.com:p%40ss%3Aw%2Frd@');
    await sender.send(RESET);
    expect(server.received.map((mail) => mail.user)).toEqual(['mailer@example.com']);
    const wrong = createSmtpMailSender({ ...SITE, ca: certificate.cert, transport: { kind: 'smtp', secure: false, starttls: 'required', host: '127.0.0.1', port: server.port, auth: { user: login.user, pass: 'wrong' } } });
    senders.push(wrong);
    await expect(wrong.send(RESET)).rejects.toMatchObject({ kind: 'auth', code: 'EAUTH', responseCode: 535 });
    expect(server.received).toHaveLength(1);
  });

  it('fails when the server is down, and sends once it is back', async () => {
    const { server, sender } = await serverAndSender({ tls: 'starttls' });
    await server.stop();
    await expect(sender.send(RESET)).rejects.toMatchObject({ kind: 'unreachable', code: 'ECONNREFUSED' });
    await server.start();
    await sender.send(RESET);
    expect(server.received).toHaveLength(1);
  });

  it('fails when the server refuses the mail', async () => {
    const { server, sender } = await serverAndSender({ tls: 'starttls' });
    const held = server.holdNext();
    const sending = sender.send(RESET);
    await held.arrived;
    held.release('refuse');
    await expect(sending).rejects.toMatchObject({ kind: 'refused', responseCode: 451, command: 'DATA' });
    expect(server.received).toHaveLength(0);
  });

  it("says what went wrong by kind and codes, never with the server's reply, which names the recipient", async () => {
    const { server, sender } = await serverAndSender({ tls: 'starttls', refuseRecipient: (address) => address === 'alice@example.com' });
    const failure = await sender.send(RESET).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(SmtpFailure);
    expect(failure).toMatchObject({ kind: 'refused', code: 'EENVELOPE', responseCode: 550, command: 'RCPT TO', message: 'SMTP send failed: refused (550 at RCPT TO)' });
    const everything = JSON.stringify({ ...(failure as object), message: (failure as Error).message, stack: (failure as Error).stack });
    expect(everything).not.toContain('alice');
    expect(everything).not.toMatch(/Recipient address rejected|User unknown/);
    expect(server.received).toHaveLength(0);
  });

  it('waits for the reply to the end of the mail as long as the server stays silent within RFC 5321, and no longer', async () => {
    expect(DEFAULT_SMTP_TIMEOUTS).toStrictEqual({ connect: 30_000, greeting: 5 * 60_000, idle: 10 * 60_000, send: 20 * 60_000 });
    const { server, sender } = await serverAndSender({ tls: 'starttls' }, { timeouts: { idle: 1_500 } });
    const slow = server.holdNext();
    const accepted = sender.send(RESET);
    await slow.arrived;
    await new Promise((resolve) => setTimeout(resolve, 700));
    slow.release('accept');
    await accepted;
    const silent = server.holdNext();
    const given = sender.send(RESET);
    await silent.arrived;
    await expect(given).rejects.toMatchObject({ kind: 'timeout', code: 'ETIMEDOUT' });
    silent.release('refuse');
  });

  it('gives up on a server that never answers the mail, within the send bound', async () => {
    const { server, sender } = await serverAndSender({ tls: 'starttls' }, { timeouts: { send: 300 } });
    const held = server.holdNext();
    // On a busy machine the 300 ms may run out before the mail reaches the held reply: a timeout all the same.
    const failed = sender.send(RESET).then(
      () => null,
      (error: unknown) => error,
    );
    await Promise.race([held.arrived, failed]);
    expect(await failed).toMatchObject({ name: 'SmtpFailure', kind: 'timeout' });
    held.release('refuse');
  });

  it('stops a send its signal aborts, and rejects at once', async () => {
    const { server, sender } = await serverAndSender({ tls: 'starttls' });
    const held = server.holdNext();
    const stop = new AbortController();
    const sending = sender.send(RESET, { signal: stop.signal });
    await held.arrived;
    stop.abort();
    await expect(sending).rejects.toMatchObject({ kind: 'aborted' });
    held.release('accept');
    const aborted = new AbortController();
    aborted.abort();
    await expect(sender.send(RESET, { signal: aborted.signal })).rejects.toMatchObject({ kind: 'aborted' });
    expect(server.arrivals).toHaveLength(1);
  });

  it('sends the end of the mail only once commit allows, asking once the data went, with the wait for the reply it then keeps to', async () => {
    const { server, sender } = await serverAndSender({ tls: 'starttls' }, { timeouts: { idle: 1_500 } });
    const asked: number[] = [];
    let allow: () => void = () => undefined;
    const recipient = server.holdNextRecipient();
    const sending = sender.send(RESET, {
      commit: (holdMs) => {
        asked.push(holdMs);
        return new Promise<void>((resolve) => (allow = resolve));
      },
    });
    // Not asked before the mail's data went: the server still holds its recipient.
    await recipient.reached;
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(asked).toEqual([]);
    recipient.release('accept');
    await vi.waitFor(() => expect(asked).toHaveLength(1), { timeout: 20_000 });
    expect(asked[0]).toBe(1_500);
    // Held at the question for longer than the idle timeout: nothing is counted against it until the end goes.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(server.arrivals).toEqual([]);
    allow();
    await sending;
    expect(server.received.map((mail) => mail.messageId)).toEqual(['<65a1b2c3d4e5f6a7b8c9d0e1@app.example.com>']);
    expect(server.unfinished).toEqual([]);
  });

  it('closes the connection without the end of the mail when commit refuses, or when the send is aborted while it waits: the server has nothing', async () => {
    const { server, sender } = await serverAndSender({ tls: 'starttls' });
    let asked = 0;
    const refused = sender.send(RESET, {
      commit: async (holdMs) => {
        asked++;
        expect(holdMs).toBe(DEFAULT_SMTP_TIMEOUTS.idle);
        throw new Error('the lease could not be had');
      },
    });
    await expect(refused).rejects.toMatchObject({ name: 'SmtpFailure' });
    expect(asked).toBe(1);
    await vi.waitFor(() => expect(server.unfinished).toHaveLength(1), { timeout: 10_000 });
    // The whole mail came, its link included, but not its end: the server discarded it.
    expect(server.unfinished[0]).toContain('Subject: Reset your password');
    expect(server.unfinished[0]).toContain(TOKEN.slice(0, 20));

    const stop = new AbortController();
    const aborted = sender.send(RESET, {
      signal: stop.signal,
      commit: () => {
        stop.abort();
        return new Promise<void>(() => undefined);
      },
    });
    await expect(aborted).rejects.toMatchObject({ kind: 'aborted' });
    await vi.waitFor(() => expect(server.unfinished).toHaveLength(2), { timeout: 10_000 });
    expect(server.arrivals).toEqual([]);
  });

  it('sends nothing once closed', async () => {
    const { server, sender } = await serverAndSender({ tls: 'starttls' });
    await sender.close();
    await expect(sender.send(RESET)).rejects.toMatchObject({ kind: 'other', code: 'ECLOSED' });
    expect(server.arrivals).toHaveLength(0);
  });

  it('sends a message tried twice with the same Message-ID both times', async () => {
    const { server, sender } = await serverAndSender({ tls: 'starttls' });
    await sender.send(RESET);
    await sender.send(RESET);
    const ids = server.received.map((mail) => mail.messageId);
    expect(ids).toEqual(['<65a1b2c3d4e5f6a7b8c9d0e1@app.example.com>', '<65a1b2c3d4e5f6a7b8c9d0e1@app.example.com>']);
  });
});

describe('the test certificate', () => {
  let server: TestMailServer | undefined;
  afterAll(async () => server?.close());

  it('is trusted only where it is given: a sender without it refuses smtps:// too', async () => {
    server = await startTestMailServer({ tls: 'implicit', certificate: selfSignedCertificate() });
    const sender = createSmtpMailSender({ ...SITE, transport: { kind: 'smtp', secure: true, starttls: 'required', host: '127.0.0.1', port: server.port } });
    await expect(sender.send(RESET)).rejects.toMatchObject({ kind: 'tls' });
    await sender.close();
  });
});
