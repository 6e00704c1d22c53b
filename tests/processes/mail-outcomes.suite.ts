// What a holder does once its mail's point of no return is behind it, or was asked for and not
// had: two apps of one service in this process on one store, their delivery loops under leases
// scaled down from production's 25 s (a lease is 1 s here), and one mail sender both apps share,
// which asks `commit(holdMs)` before it "sends" (as the SMTP sender asks before the final "." of
// DATA, holdMs being its idle timeout) and records the mail as the mail server's acceptance.
// The store is wrapped so that a test can make the calls about the password-reset message alone
// fail or answer late. Every process stays alive (a stop is a drain, not a death) unless said.
import { createInkwell, readConfig, type Inkwell, type Store } from '@inkwell/app';
import { DomainError, type Mail, type MailSender, type Outbox } from '@inkwell/domain';
import { fakePasswordHasher } from '@inkwell/domain/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { captureLogger, type CaptureLogger } from '../support/capture-logger.js';
import { PASSWORD, TEST_JWT_SECRET } from '../support/fixtures.js';

const DELIVERY = { leaseMs: 1_000, renewEveryMs: 200, leaseMarginMs: 300, pollMs: 50, stopGraceMs: 200 } as const;
const LEASE_MS = DELIVERY.leaseMs;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Faults of the store's outbox for the password-reset message alone, each used once. */
interface ResetFaults {
  /** The next `remove` of it rejects (the database unreachable for a moment, a primary stepping down). */
  removeFails: boolean;
  /** The next `remove` of it reaches the store this late. */
  removeLateBy: number;
  /** The next `retryLater` of it rejects. */
  retryLaterFails: boolean;
  /** The next long renewal of it (a commit's) reaches the store this late: applied then, answered then. */
  longRenewLateBy: number;
  /** The next long renewal of it is applied at once, and its answer comes back this late. */
  longRenewAnswerLateBy: number;
}

/** Two apps of one service over `store()`, both delivering, `a` taking the requests. */
export function describeMailOutcomes(label: string, store: () => Promise<Store>): void {
  describe(`mail outcomes past the point of no return, two apps on ${label}, leases of ${LEASE_MS} ms`, { timeout: 30_000 }, () => {
    let apps: { inkwell: Inkwell; logger: CaptureLogger }[] = [];
    let inner: Outbox;
    let accepted: Mail[];
    let resetId: string | undefined;
    let holdMs: number;
    let faults: ResetFaults;
    const removers: string[] = [];

    beforeEach(async () => {
      const shared = await store();
      inner = shared.outbox;
      accepted = [];
      resetId = undefined;
      holdMs = 0;
      removers.length = 0;
      faults = { removeFails: false, removeLateBy: 0, retryLaterFails: false, longRenewLateBy: 0, longRenewAnswerLateBy: 0 };
      const mine = (id: string) => resetId !== undefined && id === resetId;
      const outbox: Outbox = {
        add: (message) => inner.add(message),
        claim: (...args) => inner.claim(...args),
        renew: async (id, holder, now, leaseMs) => {
          if (mine(id) && leaseMs > LEASE_MS && faults.longRenewLateBy > 0) {
            const late = faults.longRenewLateBy;
            faults.longRenewLateBy = 0;
            await sleep(late);
          }
          if (mine(id) && leaseMs > LEASE_MS && faults.longRenewAnswerLateBy > 0) {
            const late = faults.longRenewAnswerLateBy;
            faults.longRenewAnswerLateBy = 0;
            const granted = await inner.renew(id, holder, now, leaseMs);
            await sleep(late);
            return granted;
          }
          return inner.renew(id, holder, now, leaseMs);
        },
        remove: async (id, holder) => {
          if (mine(id)) {
            removers.push(holder);
            if (faults.removeFails) {
              faults.removeFails = false;
              throw new DomainError('StoreUnavailable');
            }
            if (faults.removeLateBy > 0) {
              const late = faults.removeLateBy;
              faults.removeLateBy = 0;
              await sleep(late);
            }
          }
          return inner.remove(id, holder);
        },
        retryLater: async (id, holder, nextAttemptAt) => {
          if (mine(id) && faults.retryLaterFails) {
            faults.retryLaterFails = false;
            throw new DomainError('StoreUnavailable');
          }
          return inner.retryLater(id, holder, nextAttemptAt);
        },
      };
      // The mail server: the end of the mail goes once commit allows, and the server accepts it at once.
      const mailer: MailSender = {
        async send(mail, options) {
          if (mail.kind === 'password-reset') resetId = mail.messageId;
          options?.signal?.throwIfAborted();
          await options?.commit?.(holdMs);
          options?.signal?.throwIfAborted();
          accepted.push(mail);
        },
      };
      const appStore: Store = { ...shared, outbox };
      const config = readConfig({ DB_URL: 'memory:', JWT_SECRET: TEST_JWT_SECRET, MAIL_URL: 'log:', APP_URL: 'https://app.inkwell.test' });
      apps = await Promise.all(
        [0, 1].map(async () => {
          const logger = captureLogger();
          const inkwell = await createInkwell(config, logger, { store: appStore, hasher: fakePasswordHasher(), delivery: DELIVERY, mailer });
          return { inkwell, logger };
        }),
      );
    });
    afterEach(async () => {
      await Promise.all(apps.map(({ inkwell }) => inkwell.close()));
    });

    const call = (method: string, path: string, body: unknown) =>
      (apps[0] as { inkwell: Inkwell }).inkwell.app.request(path, { method, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    const resets = () => accepted.filter((mail) => mail.kind === 'password-reset');
    const nothingLeft = async () => expect(await inner.claim('test', Number.MAX_SAFE_INTEGER, LEASE_MS, 10)).toEqual([]);

    /** Alice signed up and her verification mail went; then her reset is asked for. */
    async function askReset() {
      expect((await call('POST', '/auth/signup', { email: 'alice@example.com', name: 'Alice', password: PASSWORD })).status).toBe(201);
      await expect.poll(() => accepted.length, { timeout: 10_000 }).toBe(1);
      expect((await call('POST', '/auth/password-reset', { email: 'alice@example.com' })).status).toBe(202);
    }

    // The server accepted the mail; the store fails the removal once (StoreUnavailable: a
    // database unreachable for the driver's 2 s server selection, a primary stepping down). The
    // holder tries the removal again while its long lease lasts: a message left in the outbox
    // would be claimed and sent again once that lease ends, both processes alive.
    it('sends a mail once when the store fails, once, to remove the message of a mail the server accepted', async () => {
      holdMs = 500;
      faults.removeFails = true;
      await askReset();
      await expect.poll(() => resets().length, { timeout: 10_000 }).toBeGreaterThanOrEqual(1);
      // Past the long lease (holdMs + a lease) and a few polls.
      await sleep(holdMs + 3 * LEASE_MS);
      expect(resets()).toHaveLength(1);
      await nothingLeft();
    });

    // The server accepted the mail and the holder is removing its message, which reaches the
    // store late (a slow database); the holder is stopped meanwhile (a deploy's drain) and its
    // grace runs out. A message past its commit is handed back at a stop, but not one whose mail
    // the server accepted: handed back, another holder would send it again before the late
    // removal lands.
    it('sends a mail once when the holder is stopped while it removes the message of a mail the server accepted', async () => {
      faults.removeLateBy = 3 * DELIVERY.stopGraceMs;
      await askReset();
      await expect.poll(() => removers.length, { timeout: 10_000 }).toBe(1);
      expect(resets()).toHaveLength(1);
      const holder = apps.find((app) => app.inkwell.mail?.loop.holder === removers[0]) as (typeof apps)[number];
      const other = apps.find((app) => app !== holder) as (typeof apps)[number];
      await holder.inkwell.close();
      apps = [other];
      await sleep(faults.removeLateBy + 3 * LEASE_MS);
      expect(resets()).toHaveLength(1);
      await nothingLeft();
    });

    // The store grants the commit's long lease, but its answer comes back late (after the
    // holder's local deadline): the holder aborts, sends no end, and hands the message back; the
    // first try fails (the same slow database) and it tries again. Left at one try, the message
    // would stay under the long lease (production: 10 min 25 s) with nothing of its end sent.
    it('delivers a mail within a few leases when its long lease was granted but answered too late, and the hand-back failed once', async () => {
      holdMs = 60_000;
      faults.longRenewAnswerLateBy = 2 * LEASE_MS;
      faults.retryLaterFails = true;
      await askReset();
      await expect.poll(() => resets().length, { timeout: 8 * LEASE_MS }).toBe(1);
      await nothingLeft();
    });

    // Guards: a long lease that reaches the store too late (the hand-back reaches it first), or
    // is granted but answered too late (the hand-back reaching the store after it), keeps nothing.
    it.each([
      ['reached the store too late', 'longRenewLateBy'],
      ['was granted but answered too late', 'longRenewAnswerLateBy'],
    ] as const)('delivers a mail within a few leases when its long lease %s', async (_, fault) => {
      holdMs = 60_000;
      faults[fault] = 2 * LEASE_MS;
      await askReset();
      await expect.poll(() => resets().length, { timeout: 8 * LEASE_MS }).toBe(1);
      await sleep(3 * LEASE_MS);
      expect(resets()).toHaveLength(1);
      await nothingLeft();
    });
  });
}
