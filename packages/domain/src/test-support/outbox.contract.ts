import { beforeEach, describe, expect, it } from 'vitest';
import type { NewMessage } from '../mail/message.js';
import type { Outbox } from '../mail/ports.js';

const T0 = 1_767_225_600_000;
const LEASE = 25_000;
/** A lease short enough to watch end: an outbox shared by processes counts it by its database's clock, so the tests wait for it in real time. */
const SHORT_LEASE = 1_000;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A message asked for at `requestedAt`, with a token of 32 bytes like the real ones. */
function message(overrides: Partial<NewMessage> = {}): NewMessage {
  return {
    kind: 'password-reset',
    to: 'alice@example.com',
    token: 'q1w2e3r4t5y6u7i8o9p0a1s2d3f4g5h6j7k8l9z0x1c',
    requestedAt: T0,
    ...overrides,
  };
}

/**
 * The behaviour every `Outbox` must have. `makeOutbox` is called before each test and must return
 * an outbox over an empty store. Where a lease must run out, the tests pass the real time as
 * `now` and wait: an outbox in the caller's process counts leases by `now`, one that processes
 * share by its database's clock.
 */
export function describeOutboxContract(adapterName: string, makeOutbox: () => Outbox | Promise<Outbox>): void {
  describe(`Outbox contract: ${adapterName}`, () => {
    let outbox: Outbox;
    beforeEach(async () => {
      outbox = await makeOutbox();
    });

    it('stores a message due at once, with no attempts and a new id, and gives it back as it was accepted', async () => {
      const notice: NewMessage = { kind: 'email-changed', to: 'old@example.com', userId: 'u1', requestedAt: T0 };
      const added = await outbox.add(notice);
      expect(added).toStrictEqual({ ...notice, id: expect.any(String), attempts: 0, nextAttemptAt: T0 });
      expect(added.id.length).toBeGreaterThan(0);
      expect(await outbox.claim('a', T0, LEASE, 10)).toStrictEqual([added]);
    });

    it('keeps only the fields of a message, nothing a caller put beside them', async () => {
      const smuggled = { ...message(), newEmail: 'attacker@example.com', holder: 'x' } as NewMessage;
      const added = await outbox.add(smuggled);
      expect(added).toStrictEqual({ ...message(), id: expect.any(String), attempts: 0, nextAttemptAt: T0 });
      expect(await outbox.claim('a', T0, LEASE, 10)).toStrictEqual([added]);
    });

    it('gives a claimed message its token back exactly', async () => {
      const added = await outbox.add(message());
      const [claimed] = await outbox.claim('a', T0, LEASE, 10);
      expect(claimed?.token).toBe(message().token);
      expect(claimed).toStrictEqual(added);
    });

    it('gives distinct ids to distinct messages', async () => {
      const ids = await Promise.all(Array.from({ length: 20 }, (_, i) => outbox.add(message({ requestedAt: T0 + i }))));
      expect(new Set(ids.map((added) => added.id)).size).toBe(20);
    });

    it('claims only what is due, the earliest due first, at most max', async () => {
      const later = await outbox.add(message({ requestedAt: T0 + 2 }));
      const first = await outbox.add(message({ requestedAt: T0 }));
      const notYet = await outbox.add(message({ requestedAt: T0 + 10_000 }));
      expect((await outbox.claim('a', T0 + 5, LEASE, 1)).map((m) => m.id)).toEqual([first.id]);
      expect((await outbox.claim('a', T0 + 5, LEASE, 10)).map((m) => m.id)).toEqual([later.id]);
      expect(await outbox.claim('a', T0 + 5, LEASE, 10)).toEqual([]);
      expect((await outbox.claim('a', T0 + 10_000, LEASE, 10)).map((m) => m.id)).toEqual([notYet.id]);
    });

    it('holds a claimed message for its holder until the lease ends, even against its own claims, then lets another claim it', async () => {
      const added = await outbox.add(message());
      expect(await outbox.claim('a', Date.now(), SHORT_LEASE, 10)).toHaveLength(1);
      expect(await outbox.claim('b', Date.now(), SHORT_LEASE, 10)).toEqual([]);
      expect(await outbox.claim('a', Date.now(), SHORT_LEASE, 10)).toEqual([]);
      await sleep(SHORT_LEASE + 300);
      expect((await outbox.claim('b', Date.now(), LEASE, 10)).map((m) => m.id)).toEqual([added.id]);
    });

    it('renews the lease of its holder, from the moment it renews: another cannot claim the message meanwhile', async () => {
      const added = await outbox.add(message());
      const claimedAt = Date.now();
      await outbox.claim('a', claimedAt, SHORT_LEASE, 10);
      await sleep(SHORT_LEASE / 2);
      expect(await outbox.renew(added.id, 'a', Date.now(), 2 * SHORT_LEASE)).toBe(true);
      expect(await outbox.renew(added.id, 'b', Date.now(), 2 * SHORT_LEASE)).toBe(false);
      await sleep(claimedAt + SHORT_LEASE + 300 - Date.now());
      expect(await outbox.claim('b', Date.now(), LEASE, 10)).toEqual([]);
      await sleep(2 * SHORT_LEASE);
      expect((await outbox.claim('b', Date.now(), LEASE, 10)).map((m) => m.id)).toEqual([added.id]);
      expect(await outbox.renew(added.id, 'a', Date.now(), LEASE)).toBe(false);
    });

    it('never moves a lease earlier: a short renewal after a long one leaves the long lease', async () => {
      const added = await outbox.add(message());
      await outbox.claim('a', Date.now(), SHORT_LEASE, 10);
      expect(await outbox.renew(added.id, 'a', Date.now(), 60 * SHORT_LEASE)).toBe(true);
      expect(await outbox.renew(added.id, 'a', Date.now(), SHORT_LEASE / 5)).toBe(true);
      await sleep(2 * SHORT_LEASE);
      expect(await outbox.claim('b', Date.now(), LEASE, 10)).toEqual([]);
      expect(await outbox.renew(added.id, 'a', Date.now(), SHORT_LEASE)).toBe(true);
    });

    it('renews a lease that ran out while nobody claimed the message, and nothing released, removed or unknown', async () => {
      const added = await outbox.add(message());
      const other = await outbox.add(message());
      await outbox.claim('a', Date.now(), 200, 10);
      await sleep(400);
      expect(await outbox.renew(added.id, 'a', Date.now(), LEASE)).toBe(true);
      expect((await outbox.claim('b', Date.now(), LEASE, 10)).map((m) => m.id)).toEqual([other.id]);
      await outbox.retryLater(other.id, 'b', T0);
      expect(await outbox.renew(other.id, 'b', Date.now(), LEASE)).toBe(false);
      await outbox.remove(added.id, 'a');
      expect(await outbox.renew(added.id, 'a', Date.now(), LEASE)).toBe(false);
      expect(await outbox.renew('000000000000000000000000', 'a', Date.now(), LEASE)).toBe(false);
      expect(await outbox.renew('not an id', 'a', Date.now(), LEASE)).toBe(false);
    });

    it('removes a message for its holder only: a holder whose message went to another removes nothing', async () => {
      const added = await outbox.add(message());
      await outbox.claim('a', T0, LEASE, 10);
      await outbox.retryLater(added.id, 'a', T0);
      await outbox.claim('b', T0, LEASE, 10);
      await outbox.remove(added.id, 'a');
      expect(await outbox.claim('c', T0, LEASE, 10)).toEqual([]);
      await outbox.remove(added.id, 'b');
      expect(await outbox.renew(added.id, 'b', T0, LEASE)).toBe(false);
      expect(await outbox.claim('d', Date.now() + 2 * LEASE, LEASE, 10)).toEqual([]);
    });

    it('releases a failed message for a later attempt: one more attempt, due at the time given, claimable at once then', async () => {
      const added = await outbox.add(message());
      await outbox.claim('a', T0, LEASE, 10);
      await outbox.retryLater(added.id, 'a', T0 + 5_000);
      expect(await outbox.claim('b', T0 + 4_999, LEASE, 10)).toEqual([]);
      expect(await outbox.claim('b', T0 + 5_000, LEASE, 10)).toStrictEqual([{ ...added, attempts: 1, nextAttemptAt: T0 + 5_000 }]);
      await outbox.retryLater(added.id, 'a', T0 + 6_000);
      expect(await outbox.claim('c', T0 + 6_000, LEASE, 10)).toEqual([]);
    });

    it('hands each of many messages to exactly one of many holders claiming at once', async () => {
      const added = await Promise.all(Array.from({ length: 30 }, (_, i) => outbox.add(message({ requestedAt: T0 + (i % 3) }))));
      const claims = await Promise.all(['a', 'b', 'c', 'd', 'e'].map((holder) => outbox.claim(holder, T0 + 10, LEASE, 8)));
      const claimed = claims.flat().map((m) => m.id);
      expect(claimed).toHaveLength(new Set(claimed).size);
      const rest = await outbox.claim('f', T0 + 10, LEASE, 100);
      expect([...claimed, ...rest.map((m) => m.id)].sort()).toEqual(added.map((m) => m.id).sort());
    });
  });
}
