import type { Clock, Mail, MailSender } from '@inkwell/domain';
import { fakePasswordHasher, manualClock } from '@inkwell/domain/testing';
import { describe, expect, it } from 'vitest';
import { readConfig } from './config.js';
import { createInkwell } from './inkwell.js';
import { serverLinkBase } from './mail.js';
import { memoryStore, type Store } from './store.js';

const JWT_SECRET = 'a-test-secret-of-at-least-32-bytes-long';
const TOKEN = 'q1w2e3r4t5y6u7i8o9p0a1s2d3f4g5h6j7k8l9z0x1c';

/** A logger that keeps what it is told. */
function recordingLogger() {
  const lines: { level: string; fields: Record<string, unknown>; message: string | undefined }[] = [];
  const at = (level: string) => (fields: object, message?: string) => void lines.push({ level, fields: { ...fields }, message });
  return { lines, info: at('info'), warn: at('warn'), error: at('error') };
}

/** Alice's account, straight into the store. */
async function aliceIn(store: Store, clock: Clock) {
  const now = clock.now();
  const { user } = await store.users.insert(
    { email: 'alice@example.com', name: 'Alice', passwordHash: 'h', emailVerified: false, createdAt: now, updatedAt: now },
    { createdAt: now, expiresAt: now + 60_000 },
  );
  return user;
}

/** A mail sender whose sends wait until the test lets them through. */
function heldSender() {
  const sent: Mail[] = [];
  let release!: () => void;
  let arrived!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  const arrival = new Promise<void>((resolve) => (arrived = resolve));
  const sender: MailSender = {
    async send(mail) {
      arrived();
      await released;
      sent.push(mail);
    },
  };
  return { sender, sent, arrival, release };
}

describe('mail in the composition root', () => {
  it('is on with log: outside production: a message added through the app\'s outbox is delivered within a second, into the log', async () => {
    const logger = recordingLogger();
    const store = memoryStore();
    const clock = manualClock();
    const inkwell = await createInkwell(readConfig({ DB_URL: 'memory:', JWT_SECRET }), logger, { store, clock, hasher: fakePasswordHasher(), delivery: { pollMs: 3_600_000 } });
    try {
      expect(inkwell.mail).not.toBeNull();
      await aliceIn(store, clock);
      clock.advance(1);
      await inkwell.mail?.outbox.add({ kind: 'password-reset', to: 'alice@example.com', token: TOKEN, requestedAt: clock.now() });
      await expect.poll(() => logger.lines.map((line) => line.message), { timeout: 3_000 }).toContain('mail: sent');

      const mailLine = logger.lines.find((line) => line.fields.mail !== undefined);
      expect(mailLine?.fields.mail).toMatchObject({ to: 'alice@example.com', link: `http://localhost:3000/reset-password?token=${TOKEN}` });
    } finally {
      await inkwell.close();
    }
  });

  it('starts delivering an added message only after the request that added it has moved on, within a second', async () => {
    const store = memoryStore();
    const clock = manualClock();
    const logger = recordingLogger();
    const inkwell = await createInkwell(readConfig({ DB_URL: 'memory:', JWT_SECRET }), logger, { store, clock, hasher: fakePasswordHasher(), delivery: { pollMs: 3_600_000 } });
    try {
      await aliceIn(store, clock);
      clock.advance(1);
      const added = await inkwell.mail?.outbox.add({ kind: 'password-reset', to: 'alice@example.com', token: TOKEN, requestedAt: clock.now() });
      // Still in the request's own turn: nothing has claimed the message yet. A claim that ends at
      // once takes it and gives it straight back to the loop.
      expect((await store.outbox.claim('a-test', clock.now(), 0, 10)).map((message) => message.id)).toEqual([added?.id]);
      await expect.poll(() => logger.lines.map((line) => line.message), { timeout: 3_000 }).toContain('mail: sent');
    } finally {
      await inkwell.close();
    }
  });

  /**
   * An inkwell configured by `env`, with mail on `log:` and its loop woken only by the test; `askReset`
   * adds a reset for Alice, and `link` waits until its mail is in the log and answers the link.
   */
  async function loggingMail(env: Record<string, string>) {
    const store = memoryStore();
    const clock = manualClock();
    const logger = recordingLogger();
    const inkwell = await createInkwell(readConfig({ DB_URL: 'memory:', JWT_SECRET, ...env }), logger, { store, clock, hasher: fakePasswordHasher(), delivery: { pollMs: 3_600_000 } });
    await aliceIn(store, clock);
    clock.advance(1);
    const messages = () => logger.lines.map((line) => line.message);
    return {
      inkwell,
      clock,
      messages,
      mailed: () => logger.lines.filter((line) => line.fields.mail !== undefined),
      askReset: () => inkwell.mail?.outbox.add({ kind: 'password-reset', to: 'alice@example.com', token: TOKEN, requestedAt: clock.now() }),
      async link() {
        await expect.poll(messages).toContain('mail: sent');
        return (logger.lines.find((line) => line.fields.mail !== undefined)?.fields.mail as { link?: string } | undefined)?.link;
      },
    };
  }

  it("points log: mail's links at the port the server listens on when APP_URL is unset; with PORT=0, only once it listens", async () => {
    const mailing = await loggingMail({ PORT: '0', HOST: '127.0.0.1' });
    try {
      // Before the server listens its port is unknown: the mail is not written, and is tried again.
      await mailing.askReset();
      await expect.poll(mailing.messages).toContain('mail: not accepted by the mail server; trying again later');
      expect(mailing.mailed()).toEqual([]);

      mailing.inkwell.mail?.listening(43_210);
      mailing.clock.advance(60_000);
      mailing.inkwell.mail?.loop.wake();
      expect(await mailing.link()).toBe(`http://127.0.0.1:43210/reset-password?token=${TOKEN}`);
    } finally {
      await mailing.inkwell.close();
    }
  });

  it('keeps APP_URL for log: mail when it is set, whatever the port', async () => {
    const mailing = await loggingMail({ PORT: '0', APP_URL: 'https://front.example.com/account/' });
    try {
      await mailing.askReset();
      expect(await mailing.link()).toBe(`https://front.example.com/account/reset-password?token=${TOKEN}`);
    } finally {
      await mailing.inkwell.close();
    }
  });

  it('names the server as a browser on its machine reaches it: localhost when it listens on every interface', () => {
    expect(serverLinkBase('0.0.0.0', 3000)).toBe('http://localhost:3000');
    expect(serverLinkBase('::', 8080)).toBe('http://localhost:8080');
    expect(serverLinkBase('127.0.0.1', 4000)).toBe('http://127.0.0.1:4000');
    expect(serverLinkBase('::1', 4000)).toBe('http://[::1]:4000');
    expect(serverLinkBase('inkwell.internal', 80)).toBe('http://inkwell.internal:80');
  });

  it('is off in production without MAIL_URL: no loop, no outbox for the use cases', async () => {
    const config = readConfig({ DB_URL: 'memory:', JWT_SECRET, NODE_ENV: 'production' });
    const inkwell = await createInkwell(config, recordingLogger(), { store: memoryStore(), hasher: fakePasswordHasher() });
    try {
      expect(inkwell.mail).toBeNull();
    } finally {
      await inkwell.close();
    }
  });

  it('uses the mail links\' lifetimes from the configuration', async () => {
    const config = readConfig({ DB_URL: 'memory:', JWT_SECRET, PASSWORD_RESET_TTL_SECONDS: '600', EMAIL_VERIFY_TTL_SECONDS: '7200' });
    const inkwell = await createInkwell(config, recordingLogger(), { store: memoryStore(), hasher: fakePasswordHasher() });
    try {
      expect(inkwell.mail?.mailRules).toStrictEqual({ passwordResetTtlMs: 600_000, emailVerificationTtlMs: 7_200_000 });
    } finally {
      await inkwell.close();
    }
  });

  it('closes only once the send in flight has finished, and the message is then gone from the outbox', async () => {
    const store = memoryStore();
    const clock = manualClock();
    const held = heldSender();
    const inkwell = await createInkwell(readConfig({ DB_URL: 'memory:', JWT_SECRET }), recordingLogger(), { store, clock, hasher: fakePasswordHasher(), mailer: held.sender });
    const user = await aliceIn(store, clock);
    await inkwell.mail?.outbox.add({ kind: 'password-changed', to: 'alice@example.com', userId: user.id, requestedAt: clock.now() });
    await held.arrival;
    let closed = false;
    const closing = inkwell.close().then(() => (closed = true));
    await new Promise((resolve) => setImmediate(resolve));
    expect(closed).toBe(false);
    held.release();
    await closing;
    expect(held.sent.map((mail) => mail.kind)).toEqual(['password-changed']);
    expect(await store.outbox.claim('after', clock.now() + 60_000, clock.now() + 90_000, 10)).toEqual([]);
  });
});
