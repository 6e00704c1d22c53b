// No mail sent twice while every process is alive, however slow the mail server or the database:
// two apps of one service in this process (each with its own delivery loop, holder name and SMTP
// sender thread) on one store, mailing through a real SMTP server in this process, with leases
// scaled down from production's 25 s so that "longer than a lease" takes a second. The mail
// server holds the end of a mail's DATA for longer than a lease; the store answers every call
// late. A process that stops mid-send keeps the promise a crash keeps: at most twice, one
// Message-ID. The same with production's lease and real processes: mail-delivery.integration.test.ts.
// The end of a mail's DATA (the point past which the server may accept it) goes only once the
// store granted the holder one lease covering the wait for the server's answer: a store that is
// slow then stops the send before that end, and a store slow afterwards cannot cut it.
import { createInkwell, readConfig, type Inkwell, type Store } from '@inkwell/app';
import type { Outbox } from '@inkwell/domain';
import { startTestMailServer, type ReceivedMail, type TestMailServer } from '@inkwell/app/testing';
import { fakePasswordHasher } from '@inkwell/domain/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { captureLogger, type CaptureLogger } from '../support/capture-logger.js';
import { withLatency } from '../support/faulty-store.js';
import { PASSWORD, TEST_JWT_SECRET } from '../support/fixtures.js';

/** Leases of a second, renewed every 200 ms and given up 300 ms before they could end; a look every 50 ms. */
const DELIVERY = { leaseMs: 1_000, renewEveryMs: 200, leaseMarginMs: 300, pollMs: 50, stopGraceMs: 200 } as const;
const LEASE_MS = DELIVERY.leaseMs;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Two apps of one service over `store()`: both deliver, and `a` takes the requests. */
export function describeMailLeases(label: string, store: () => Promise<Store>): void {
  describe(`mail delivery by two apps on ${label}, leases of ${LEASE_MS} ms`, { timeout: 30_000 }, () => {
    let server: TestMailServer;
    let apps: { inkwell: Inkwell; logger: CaptureLogger }[] = [];
    let shared: ReturnType<typeof withLatency>;
    /** How late the store grants the next lease longer than a lease (a send's long lease at the end of its DATA); once. */
    let nextLongLeaseLateBy = 0;

    beforeEach(async () => {
      // Plain SMTP on 127.0.0.1, where STARTTLS is optional: the dialogue is what these tests are about.
      server = await startTestMailServer({ tls: 'none' });
      shared = withLatency(await store(), 0);
      nextLongLeaseLateBy = 0;
      const inner = shared.store.outbox;
      const outbox: Outbox = {
        add: (message) => inner.add(message),
        claim: (...args) => inner.claim(...args),
        renew: async (id, holder, now, leaseMs) => {
          const lateBy = leaseMs > LEASE_MS ? nextLongLeaseLateBy : 0;
          if (lateBy > 0) {
            nextLongLeaseLateBy = 0;
            await sleep(lateBy);
          }
          return inner.renew(id, holder, now, leaseMs);
        },
        remove: (...args) => inner.remove(...args),
        retryLater: (...args) => inner.retryLater(...args),
      };
      const appStore: Store = { ...shared.store, outbox };
      const config = readConfig({ DB_URL: 'memory:', JWT_SECRET: TEST_JWT_SECRET, MAIL_URL: server.url, MAIL_FROM: 'no-reply@inkwell.test', APP_URL: 'https://app.inkwell.test' });
      apps = await Promise.all(
        [0, 1].map(async () => {
          const logger = captureLogger();
          const inkwell = await createInkwell(config, logger, { store: appStore, hasher: fakePasswordHasher(), delivery: DELIVERY });
          return { inkwell, logger };
        }),
      );
    });
    afterEach(async () => {
      await Promise.all(apps.map(({ inkwell }) => inkwell.close()));
      await server.close();
    });

    const call = (method: string, path: string, body: unknown) =>
      (apps[0] as { inkwell: Inkwell }).inkwell.app.request(path, { method, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    const resets = (mails: readonly ReceivedMail[]) => mails.filter((mail) => mail.subject.startsWith('Reset your password'));
    const logged = (message: string) => apps.flatMap(({ logger }) => logger.entries.filter((entry) => entry.message === message));

    /** Alice signed up, her verification mail delivered; then her reset asked for, its mail held at the end of its DATA. */
    async function resetHeld() {
      expect((await call('POST', '/auth/signup', { email: 'alice@example.com', name: 'Alice', password: PASSWORD })).status).toBe(201);
      await server.waitFor(1, 10_000);
      await sleep(2);
      const held = server.holdNext();
      expect((await call('POST', '/auth/password-reset', { email: 'alice@example.com' })).status).toBe(202);
      const first = await held.arrived;
      return { held, first };
    }

    it('sends a mail once when the mail server answers its end three leases later', async () => {
      const { held, first } = await resetHeld();
      await sleep(3 * LEASE_MS);
      held.release('accept');
      await server.waitFor(2, 5_000);
      // Long enough for any second attempt to arrive.
      await sleep(2 * LEASE_MS);
      expect(resets(server.arrivals)).toEqual([first]);
      expect(resets(server.received).map((mail) => mail.messageId)).toEqual([first.messageId]);
      expect(logged('mail: sent')).toHaveLength(2);
      expect(logged('mail: stopped, its lease could not be kept; left to whoever holds it next')).toEqual([]);
      expect(await shared.store.outbox.claim('test', Number.MAX_SAFE_INTEGER, LEASE_MS, 10)).toEqual([]);
    });

    it('sends a mail once when every call to the store answers a fifth of a lease late (as 5 s to 25 s), and the mail server a lease and a half', async () => {
      const { held, first } = await resetHeld();
      shared.setLatency(LEASE_MS / 5);
      await sleep(1.5 * LEASE_MS);
      held.release('accept');
      await server.waitFor(2, 5_000);
      await sleep(3 * LEASE_MS);
      expect(resets(server.arrivals)).toEqual([first]);
      expect(logged('mail: stopped, its lease could not be kept; left to whoever holds it next')).toEqual([]);
      await expect.poll(async () => shared.store.outbox.claim('test', Number.MAX_SAFE_INTEGER, LEASE_MS, 10), { timeout: 5_000 }).toEqual([]);
    });

    // With production's 25 s leases: a database answering 40 s late, under load, every process
    // alive. The holder's long lease was granted at the end of DATA, before the store slowed
    // down: no renewal is needed until the server answers, so nothing cuts the send.
    it('sends a mail once when the store answers a lease and a half late while the mail server holds the end of DATA', async () => {
      const { held, first } = await resetHeld();
      shared.setLatency(1.5 * LEASE_MS);
      await sleep(2 * LEASE_MS);
      held.release('accept');
      shared.setLatency(0);
      await sleep(4 * LEASE_MS);
      expect(resets(server.arrivals).map((mail) => mail.messageId)).toEqual([first.messageId]);
      expect(logged('mail: stopped, its lease could not be kept; left to whoever holds it next')).toEqual([]);
      await expect.poll(async () => shared.store.outbox.claim('test', Number.MAX_SAFE_INTEGER, LEASE_MS, 10), { timeout: 5_000 }).toEqual([]);
    });

    it('never sends the end of DATA when the store grants the long lease for it too late: the server discards that mail, and it is sent once in full', async () => {
      expect((await call('POST', '/auth/signup', { email: 'alice@example.com', name: 'Alice', password: PASSWORD })).status).toBe(201);
      await server.waitFor(1, 10_000);
      nextLongLeaseLateBy = 2 * LEASE_MS;
      expect((await call('POST', '/auth/password-reset', { email: 'alice@example.com' })).status).toBe(202);
      await expect.poll(() => server.unfinished.length, { timeout: 10_000 }).toBe(1);
      expect(server.unfinished[0]).toContain('Subject: Reset your password');
      expect(resets(server.arrivals)).toEqual([]);
      await server.waitFor(2, 10_000);
      // Past the late grant and more: no second arrival.
      await sleep(3 * LEASE_MS);
      expect(resets(server.arrivals)).toHaveLength(1);
      expect(server.unfinished).toHaveLength(1);
      expect(logged('mail: stopped, its lease could not be kept; left to whoever holds it next')).toHaveLength(1);
      await expect.poll(async () => shared.store.outbox.claim('test', Number.MAX_SAFE_INTEGER, LEASE_MS, 10), { timeout: 5_000 }).toEqual([]);
    });

    it('lets the other app send a mail once the app that held it stops mid-send: at most twice, with one Message-ID', async () => {
      const { held, first } = await resetHeld();
      const id = /^<([0-9a-f]+)@/.exec(first.messageId)?.[1] ?? '';
      const holding = [];
      for (const app of apps) if (await shared.store.outbox.renew(id, app.inkwell.mail?.loop.holder ?? '', Date.now(), LEASE_MS)) holding.push(app);
      expect(holding).toHaveLength(1);
      const [holder] = holding as [(typeof apps)[number]];
      const other = apps.find((app) => app !== holder) as (typeof apps)[number];
      await holder.inkwell.close();
      apps = [other];
      expect(holder.logger.entries.map((entry) => entry.message)).toContain('mail: stopping with deliveries in flight; they are called off, and their messages tried again once their lease ends');
      // The mail server still accepts what it had: the one window in which a mail may arrive twice.
      held.release('accept');
      await expect.poll(() => other.logger.entries.some((entry) => entry.message === 'mail: sent' && entry.fields.kind === 'password-reset'), { timeout: 5_000 }).toBe(true);
      const arrived = resets(server.arrivals);
      expect(arrived.length).toBeGreaterThanOrEqual(1);
      expect(arrived.length).toBeLessThanOrEqual(2);
      expect(new Set(arrived.map((mail) => mail.messageId))).toEqual(new Set([first.messageId]));
      expect(await shared.store.outbox.claim('test', Number.MAX_SAFE_INTEGER, LEASE_MS, 10)).toEqual([]);
    });
  });
}
