// Nothing lost, nothing doubled: real inkwell processes on one MongoDB database (the real driver),
// sending through a real SMTP server in this process, which the tests take down, bring back, and
// hold a mail at. A message accepted before an answer is delivered across a mail server that is
// down, a process killed before delivery, a process killed while holding it before the end of its
// DATA, and a process stopped whole past that end; and many messages from several processes each
// arrive once.
import { mongoTest, startMongoProxy, withTestMongo, type MongoProxy, type TestMongo } from '@inkwell/adapters-mongo/testing';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { PASSWORD, TEST_JWT_SECRET } from '../support/fixtures.js';
import type { ReceivedMail } from '@inkwell/app/testing';
import { APP_URL, kindOf, MAIL_FROM, mailForProcesses, tokenOf, type MailForProcesses } from '../support/mail.js';
import { call } from '../support/one-service.js';
import { startInkwell, type ChildServer } from '../support/start-inkwell.js';

/**
 * Mail delivery's timings, production's scaled down five times (leases of 5 s renewed every
 * second), so that a takeover or a reply slower than a lease takes seconds rather than half a
 * minute; production's own are checked by the delivery loop's unit tests (mail-delivery.test.ts).
 * The SMTP timeouts stay production's: RFC 5321's 10 minutes for the reply to the end of a mail.
 */
const DELIVERY = { leaseMs: 5_000, renewEveryMs: 1_000, leaseMarginMs: 1_000 };

/** A Message-ID inkwell writes: the message's id at the host of APP_URL. */
const MESSAGE_ID = /^<[0-9a-f]{24}@app\.inkwell\.test>$/;

describe.skipIf(!mongoTest)('mail delivery across outages and crashes, on MongoDB', () => {
  let mongo: TestMongo;
  let mail: MailForProcesses;
  const running: ChildServer[] = [];
  beforeAll(async () => {
    mongo = await withTestMongo();
    mail = await mailForProcesses();
  });
  afterEach(async () => {
    await Promise.all(running.splice(0).map((server) => server.close()));
    await mail.server.start().catch(() => undefined);
  });
  afterAll(async () => {
    await mail?.close();
    await mongo?.cleanup();
  });

  /** An inkwell process in production mode on the test database (or through `proxy` to it), mailing through the test server, with `DELIVERY`'s leases. */
  async function startProcess(env: Record<string, string> = {}, proxy?: MongoProxy): Promise<ChildServer> {
    const server = await startInkwell({
      in: 'child',
      store: proxy === undefined ? mongo : { url: proxy.url, database: mongo.database },
      env: { NODE_ENV: 'production', JWT_SECRET: TEST_JWT_SECRET, HASH_WORKERS: '1', ...mail.env, ...env },
      delivery: DELIVERY,
    });
    running.push(server);
    return server;
  }
  const signUp = (url: string, email: string) => call(url, 'POST', '/auth/signup', { email, name: 'Mo', password: PASSWORD });
  const askForReset = (url: string, email: string) => call(url, 'POST', '/auth/password-reset', { email });
  const waiting = () => mongo.db.collection('outbox').countDocuments();
  /** An account, its verification mail delivered (or, with the server down, waiting). */
  async function account(url: string, email: string): Promise<void> {
    const received = mail.server.received.length;
    expect((await signUp(url, email)).status).toBe(201);
    if (mail.server.listening()) await mail.server.waitFor(received + 1);
  }

  it('answers 202 at once while the mail server is down, and delivers once it is back: a reset that works', async () => {
    const inkwell = await startProcess();
    await account(inkwell.url, 'down@example.com');
    await mail.server.stop();
    const received = mail.server.received.length;
    expect(await askForReset(inkwell.url, 'down@example.com')).toMatchObject({ status: 202, body: {} });
    // Tried, refused, and kept: the outbox holds it, its token sealed.
    await inkwell.child.waitForLine(/mail: not accepted by the mail server/);
    const stored = await mongo.db.collection('outbox').find({}).toArray();
    expect(stored).toHaveLength(1);
    expect(stored[0]).toMatchObject({ kind: 'password-reset', to: 'down@example.com', attempts: 1, holder: null });

    await mail.server.start();
    const reset = (await mail.server.waitFor(received + 1, 15_000))[received] as ReceivedMail;
    expect(reset.envelope).toEqual({ from: 'no-reply@inkwell.test', to: ['down@example.com'] });
    expect(reset.from).toBe(MAIL_FROM);
    expect(reset.subject).toBe('Reset your password on app.inkwell.test');
    expect(reset.messageId).toMatch(MESSAGE_ID);
    expect(reset.secure).toBe(true);
    expect(reset.link).toMatch(new RegExp(`^${APP_URL}/reset-password\\?token=[A-Za-z0-9_-]{43}$`));
    // The token the mail carries was never in the outbox in clear, and it works.
    expect(JSON.stringify(stored)).not.toContain(tokenOf(reset));
    const confirmed = await call(inkwell.url, 'POST', '/auth/password-reset/confirm', { token: tokenOf(reset), newPassword: 'a new password' });
    expect(confirmed.status).toBe(200);
    await expect.poll(waiting).toBe(0);
  }, 60_000);

  it('delivers after a restart a message whose process was killed after the answer, before delivery', async () => {
    const before = await startProcess();
    await account(before.url, 'crash@example.com');
    await mail.server.stop();
    expect((await askForReset(before.url, 'crash@example.com')).status).toBe(202);
    await before.child.waitForLine(/mail: not accepted by the mail server/);
    await before.close(); // SIGKILL: nothing of the process survives but what it stored
    expect(await waiting()).toBe(1);

    await mail.server.start();
    const received = mail.server.received.length;
    await startProcess();
    const mails = await mail.server.waitFor(received + 1, 20_000);
    expect(mails.slice(received).map((m) => [m.envelope.to, kindOf(m)])).toEqual([[['crash@example.com'], 'password-reset']]);
    await expect.poll(waiting).toBe(0);
  }, 60_000);

  it('lets another process take over a message whose process died holding it before the end of its DATA, within a lease and a poll, and sends it once', async () => {
    const holding = await startProcess();
    await account(holding.url, 'held@example.com');
    const held = mail.server.holdNextRecipient();
    const received = mail.server.received.length;
    const arrivals = mail.server.arrivals.length;
    // Answered while the mail server holds this very mail unanswered: no answer waits for mail.
    expect((await askForReset(holding.url, 'held@example.com')).status).toBe(202);
    // The mail server holds the reply to its recipient: the process holds the message, and nothing of the mail went.
    expect(await held.reached).toBe('held@example.com');
    const other = await startProcess();
    await holding.close();
    const killedAt = Date.now();
    held.release('accept');
    const mails = await mail.server.waitFor(received + 1, 30_000);
    const tookOverIn = Date.now() - killedAt;
    const sent = mails[received] as ReceivedMail;
    // Production: 25 s and a poll, so within 30 s.
    expect(tookOverIn).toBeLessThan(DELIVERY.leaseMs + 5_000);
    expect(kindOf(sent)).toBe('password-reset');
    expect(sent.messageId).toMatch(MESSAGE_ID);
    expect(sent.envelope.to).toEqual(['held@example.com']);
    await expect.poll(waiting).toBe(0);
    expect(mail.server.arrivals.slice(arrivals)).toEqual([sent]);
    // The process that took it over says so (its lines reach stdout in batches).
    await other.child.waitForLine(/"msg":"mail: sent"/, 5_000);
  }, 60_000);

  it('sends a mail once when its process is stopped whole (SIGSTOP) past the end of its DATA for longer than a lease: its lease covers the 10 minutes of the reply', async () => {
    const holding = await startProcess();
    await startProcess();
    await account(holding.url, 'stopped@example.com');
    const held = mail.server.holdNext();
    const arrivals = mail.server.arrivals.length;
    expect((await askForReset(holding.url, 'stopped@example.com')).status).toBe(202);
    const arrived = await held.arrived;
    const pid = holding.child.process.pid as number;
    process.kill(pid, 'SIGSTOP');
    try {
      // The end of DATA went only once the database granted the long lease: RFC 5321's 10 minutes for the reply, and a lease.
      const message = await mongo.db.collection('outbox').findOne({ to: 'stopped@example.com' });
      expect(Number(message?.leaseUntil) - Date.now()).toBeGreaterThan(10 * 60_000);
      // Longer than a lease and a poll: another process would have taken a message with a lease alone.
      await new Promise((resolve) => setTimeout(resolve, 2 * DELIVERY.leaseMs));
      held.release('accept');
      await new Promise((resolve) => setTimeout(resolve, 1_000));
    } finally {
      process.kill(pid, 'SIGCONT');
    }
    await expect.poll(waiting, { timeout: 10_000 }).toBe(0);
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    expect(mail.server.arrivals.slice(arrivals).map((m) => m.messageId)).toEqual([arrived.messageId]);
  }, 90_000);

  it('sends a mail once, with two processes alive, when the mail server answers its end after longer than a lease', async () => {
    const first = await startProcess();
    await startProcess();
    await account(first.url, 'slow@example.com');
    const held = mail.server.holdNext();
    const arrivals = mail.server.arrivals.length;
    expect((await askForReset(first.url, 'slow@example.com')).status).toBe(202);
    const arrived = await held.arrived;
    // RFC 5321 gives the reply to the end of DATA 10 minutes: the sender waits, under its long lease.
    await new Promise((resolve) => setTimeout(resolve, 2 * DELIVERY.leaseMs));
    const received = mail.server.received.length;
    held.release('accept');
    await mail.server.waitFor(received + 1, 10_000);
    await expect.poll(waiting, { timeout: 10_000 }).toBe(0);
    // Whatever arrives within another poll and lease would be the duplicate.
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    expect(mail.server.arrivals.slice(arrivals).map((m) => m.messageId)).toEqual([arrived.messageId]);
  }, 90_000);

  it('sends a mail once, with two processes alive, when every query to the database answers a fifth of a lease late and the mail server in more than a third of one', async () => {
    const proxy = await startMongoProxy(mongo.url);
    try {
      const first = await startProcess({}, proxy);
      await startProcess({}, proxy);
      await account(first.url, 'lagging@example.com');
      const held = mail.server.holdNext();
      const arrivals = mail.server.arrivals.length;
      // Production: 5 s late, the mail server in 9 s.
      proxy.delayQueries(DELIVERY.leaseMs / 5);
      expect((await askForReset(first.url, 'lagging@example.com')).status).toBe(202);
      const arrived = await held.arrived;
      await new Promise((resolve) => setTimeout(resolve, (DELIVERY.leaseMs * 9) / 25));
      held.release('accept');
      await expect.poll(waiting, { timeout: 40_000, interval: 1_000 }).toBe(0);
      proxy.delayQueries(0);
      await new Promise((resolve) => setTimeout(resolve, 3_000));
      expect(mail.server.arrivals.slice(arrivals).map((m) => m.messageId)).toEqual([arrived.messageId]);
      for (const process of running) expect(process.child.lines.filter((line) => line.includes('its lease could not be kept'))).toEqual([]);
    } finally {
      await Promise.all(running.splice(0).map((server) => server.close()));
      await proxy.close();
    }
  }, 150_000);

  it('stops claiming when its drain starts, finishes the send in flight, exits 0, and leaves the mail asked for meanwhile to the others', async () => {
    const stopping = await startProcess({ SHUTDOWN_DRAIN_SECONDS: '2' });
    await account(stopping.url, 'drain@example.com');
    await account(stopping.url, 'later@example.com');
    const held = mail.server.holdNext();
    const received = mail.server.received.length;
    expect((await askForReset(stopping.url, 'drain@example.com')).status).toBe(202);
    await held.arrived;

    stopping.child.process.kill('SIGTERM');
    await stopping.child.waitForLine(/shutting down: draining/);
    // Still serving while it drains, and the mail asked for now is stored, but not claimed here.
    expect((await askForReset(stopping.url, 'later@example.com')).status).toBe(202);
    held.release('accept');
    expect(await stopping.child.exited).toBe(0);
    expect(stopping.child.lines.findIndex((line) => line.includes('"msg":"mail: sent"'))).toBeLessThan(stopping.child.lines.findIndex((line) => line.includes('"msg":"stopped"')));
    const left = await mongo.db.collection('outbox').find({}).toArray();
    expect(left.map((message) => [message.to, message.attempts, message.holder])).toEqual([['later@example.com', 0, null]]);

    await startProcess();
    const mails = await mail.server.waitFor(received + 2, 20_000);
    expect(mails.slice(received).map((m) => `${m.envelope.to.join()} ${kindOf(m)}`)).toEqual(['drain@example.com password-reset', 'later@example.com password-reset']);
    await expect.poll(waiting).toBe(0);
  }, 60_000);
});
